import type { FieldValues, Resolver } from 'react-hook-form'
import type { z } from 'zod'

/**
 * `zodResolver(schema)` for a form on a page that must stay light (`/auth`, issue 18's 120 KB):
 * the schema (and with it zod and its Portuguese locale) is imported at the first validation,
 * not with the page. The messages are the schema's, exactly as with `zodResolver`.
 */
export function lazyZodResolver<TInput extends FieldValues, TOutput = TInput>(
  load: () => Promise<z.ZodType<TOutput, TInput>>,
): Resolver<TInput, unknown, TOutput> {
  let resolver: Promise<Resolver<TInput, unknown, TOutput>> | undefined
  return async (values, context, options) => {
    resolver ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(
      ([schema, { zodResolver }]) =>
        zodResolver(schema as never) as unknown as Resolver<TInput, unknown, TOutput>,
    )
    try {
      return await (await resolver)(values, context, options)
    } catch (err) {
      resolver = undefined // a failed chunk load is tried again at the next validation
      throw err
    }
  }
}
