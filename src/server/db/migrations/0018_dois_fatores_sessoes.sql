-- A session of an account with the second factor on is valid only when it was opened after the
-- code (auth/session.ts): the ones already open are not known to be such, so every account with the
-- second factor signs in again once.
ALTER TABLE "session" ADD COLUMN "dois_fatores" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A TOTP code is accepted once: the time step of the last one accepted, per account.
ALTER TABLE "two_factor" ADD COLUMN "ultimo_passo" bigint;--> statement-breakpoint
-- "Trust this device" is refused from now on; the devices trusted before are forgotten.
DELETE FROM "verification" WHERE "identifier" LIKE 'trust-device-%';
