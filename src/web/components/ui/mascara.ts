import IMask, { type FactoryArg, type InputMask } from 'imask'
import { useEffect, useRef } from 'react'

/**
 * An IMask mask on an `<input>`, attached the first time the person focuses it or the browser
 * fills it in. Building a mask costs a phone 20–50 ms a field, which a form used to pay for every
 * masked field on its first render (Meus Dados: most of its blocking time); until then the input
 * shows `texto` as it is, which must already be in the mask's format. `onAccept` receives what the
 * person typed, masked; a value set from outside (the form's reset, the CEP's lookup) is shown.
 * Spread the result on the input.
 */
export function useMascara(opcoes: FactoryArg, texto: string, onAccept: (masked: string) => void) {
  const ref = useRef<HTMLInputElement>(null)
  const mascara = useRef<InputMask<FactoryArg> | null>(null)
  const aceitar = useRef(onAccept)
  const inicial = useRef(texto)
  useEffect(() => {
    aceitar.current = onAccept
  })

  const ativar = () => {
    if (!mascara.current && ref.current) {
      const m = IMask(ref.current, opcoes)
      m.on('accept', () => aceitar.current(m.value))
      mascara.current = m
    }
    return mascara.current
  }

  useEffect(() => {
    const m = mascara.current
    if (m) {
      if (m.value !== texto) m.value = texto
    } else if (ref.current && ref.current.value !== texto) ref.current.value = texto
  }, [texto])
  useEffect(
    () => () => {
      mascara.current?.destroy()
      mascara.current = null
    },
    [],
  )

  return {
    ref,
    defaultValue: inicial.current,
    onFocus: () => void ativar(),
    // Typed or filled in before any focus (the browser's autofill): the mask takes it from here.
    onChange: () => {
      if (mascara.current) return
      const m = ativar()
      if (m) aceitar.current(m.value)
    },
  }
}
