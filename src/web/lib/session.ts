import { useQuery } from '@tanstack/react-query'
import { api } from './api.ts'
import { meQuery } from './me-query.ts'

export { meQuery }

export const useMe = () => useQuery(meQuery())

/** SPEC §4: global sign-out, then /auth with a full page load even if it fails. */
export async function signOut() {
  try {
    await api('/api/conta/sair', { method: 'POST' })
  } catch (err) {
    console.error('Falha ao sair', err)
  }
  window.location.assign('/auth')
}
