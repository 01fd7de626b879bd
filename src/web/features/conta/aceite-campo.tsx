/**
 * "Li e aceito a Política de Privacidade e os Termos de Uso", with links to both pages
 * (opened in a new tab) and, when `erro` is set, the message under the text, tied to the box.
 * Used by the sign-up form and by the acceptance of a newer version after sign-in.
 */
export function AceiteCampo({
  id,
  checked,
  onChange,
  erro,
}: {
  id: string
  checked: boolean
  onChange: (checked: boolean) => void
  erro?: string | null
}) {
  const erroId = `${id}-erro`
  return (
    <div className="grid gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 cursor-pointer accent-primary aria-invalid:outline-2 aria-invalid:outline-offset-1 aria-invalid:outline-destructive"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={Boolean(erro)}
          aria-describedby={erro ? erroId : undefined}
        />
        <label htmlFor={id} className="cursor-pointer text-sm leading-snug">
          Li e aceito a{' '}
          <a href="/privacidade" target="_blank" rel="noopener" className="text-primary underline">
            Política de Privacidade
          </a>{' '}
          e os{' '}
          <a href="/termos" target="_blank" rel="noopener" className="text-primary underline">
            Termos de Uso
          </a>
        </label>
      </div>
      {erro && (
        <p id={erroId} className="pl-6 text-xs text-destructive">
          {erro}
        </p>
      )}
    </div>
  )
}
