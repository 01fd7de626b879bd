import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../styles.css'
import { LandingPage } from '../features/landing/landing-page.tsx'

const root = document.getElementById('root')
if (!root) throw new Error('Elemento #root não encontrado')

createRoot(root).render(
  <StrictMode>
    <LandingPage />
  </StrictMode>,
)
