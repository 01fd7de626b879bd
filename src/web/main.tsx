import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { Toaster } from './components/toaster.tsx'
import { ApiError } from './lib/api.ts'
import { meQuery } from './lib/me-query.ts'
import { paths } from './paths.ts'
import { router } from './router.tsx'
import './styles.css'
import { DOIS_FATORES_PENDENTE } from '#shared/codigos.ts'

/** An admin route refused for want of the second factor: the administrator goes to enrol. */
const onError = (err: unknown) => {
  if (err instanceof ApiError && err.code === DOIS_FATORES_PENDENTE)
    void router.navigate(paths.ativarDoisFatores, { replace: true })
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
})

// A signed-in screen needs the session before anything else: asked for now, while the screen's
// code downloads, rather than once the route guard has loaded (one round trip less on a phone).
if (window.location.pathname.startsWith(paths.app)) void queryClient.prefetchQuery(meQuery())

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
)
