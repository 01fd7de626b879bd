import { useEffect, useRef, useState, type DragEvent as ReactDragEvent } from 'react'

/** Whether a drag carries files (not a text or a link being dragged). */
const temArquivos = (e: DragEvent | ReactDragEvent) =>
  Array.from(e.dataTransfer?.types ?? []).includes('Files')

/**
 * A file dropped anywhere but a drop zone is ignored: the browser's default opens it in the tab,
 * leaving the screen (and what was typed in it). Used once, by the signed-in app's frame.
 */
export function useIgnorarArquivoSolto() {
  useEffect(() => {
    const ignorar = (e: DragEvent) => {
      if (temArquivos(e)) e.preventDefault()
    }
    window.addEventListener('dragover', ignorar)
    window.addEventListener('drop', ignorar)
    return () => {
      window.removeEventListener('dragover', ignorar)
      window.removeEventListener('drop', ignorar)
    }
  }, [])
}

/**
 * An element that takes a file dropped on it (drag and drop from the computer): `props` go on
 * the element, `sobre` is true while a file is dragged over it. Off (`ativo` false) it takes
 * nothing, and a drop there is ignored like anywhere else.
 */
export function useSoltarArquivo(onArquivo: (file: File) => void, ativo = true) {
  const [sobre, setSobre] = useState(false)
  // dragenter/dragleave fire for every child crossed: count them.
  const dentro = useRef(0)
  if (!ativo) return { sobre: false, props: {} }
  return {
    sobre,
    props: {
      onDragEnter: (e: ReactDragEvent) => {
        if (!temArquivos(e)) return
        e.preventDefault()
        dentro.current++
        setSobre(true)
      },
      onDragOver: (e: ReactDragEvent) => {
        if (!temArquivos(e)) return
        e.preventDefault()
        e.dataTransfer.dropEffect = 'copy'
      },
      onDragLeave: (e: ReactDragEvent) => {
        if (!temArquivos(e)) return
        dentro.current = Math.max(0, dentro.current - 1)
        if (!dentro.current) setSobre(false)
      },
      onDrop: (e: ReactDragEvent) => {
        if (!temArquivos(e)) return
        e.preventDefault()
        dentro.current = 0
        setSobre(false)
        const file = e.dataTransfer.files[0]
        if (file) onArquivo(file)
      },
    },
  }
}
