-- A stranger's wrong guesses never lock the owner out (auth/rate-limit.ts): the per-account
-- limit of a browser the account never signed in from becomes growing delays, kept per key.
ALTER TABLE "auth_rate_limit" ADD COLUMN "proxima" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auth_rate_limit" ADD COLUMN "ultima" timestamp with time zone;
