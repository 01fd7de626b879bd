import { zodResolver } from '@hookform/resolvers/zod'
import type { FieldValues, Resolver } from 'react-hook-form'
import type { z } from 'zod'

/**
 * react-hook-form's resolver for a shared zod schema that is imported at the form's first
 * validation (its first submit): `resolverTardio(() => import('#shared/schemas/x.ts').then(…))`,
 * made once per form, at module level. Building zod's schemas was the longest task of Meus Dados
 * on a phone (~180 ms of its main thread at 4× slowdown, before the screen could answer); the
 * schemas and zod now come in the `forms-mais` chunk, when a form first needs them. The form's
 * toast titles come from zod-free modules (`#shared/senhas.ts`, `endereco.ts`, `documento.ts`).
 */
export function resolverTardio<TIn extends FieldValues, TOut = TIn>(
  schema: () => Promise<z.ZodType<TOut, TIn>>,
): Resolver<TIn, unknown, TOut> {
  let resolver: Resolver<TIn, unknown, TOut> | undefined
  return async (values, context, options) => {
    resolver ??= zodResolver(await schema()) as unknown as Resolver<TIn, unknown, TOut>
    return resolver(values, context, options)
  }
}
