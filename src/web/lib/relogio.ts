import { useEffect } from 'react'
import { formatDateTime } from '#shared/datas.ts'
import { depoisDaPintura } from './depois-da-pintura.ts'

/**
 * The browser's first date formatted on Brasília's clock starts ICU's time-zone data: ~70 ms of a
 * phone's main thread (CPU slowed 4x), paid inside whichever card first shows a date and time
 * (the sessions, the warnings, the documents), which made that card's render a long task. Done
 * here once the signed-in frame is painted, in a task of its own, it blocks nothing.
 */
export function useAquecerRelogio() {
  useEffect(() => depoisDaPintura(() => formatDateTime(new Date())), [])
}
