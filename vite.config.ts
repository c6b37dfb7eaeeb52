import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { comlink } from 'vite-plugin-comlink'

const backend = `http://127.0.0.1:${process.env.PORT ?? '7655'}`

export default defineConfig({
  plugins: [comlink(), react(), tailwindcss()],
  worker: { format: 'es', plugins: () => [comlink()] },
  optimizeDeps: { include: ['comlink'] },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1024 },
  server: {
    proxy: {
      '/api': backend,
      '/ws': { target: backend.replace('http', 'ws'), ws: true },
    },
  },
})
