import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { startPrefs } from './prefs.ts'
import './styles.css'
import { createWorkerClient } from './worker-client.ts'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// Saved filters go into the UI state before the first render, so the first view request to the
// worker already carries them.
startPrefs()

createRoot(root).render(
  <StrictMode>
    <App api={createWorkerClient()} />
  </StrictMode>,
)
