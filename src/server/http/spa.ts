// Serves the built SPA with history fallback: client routes get index.html, /api/* gets JSON 404.
// HEAD answers as GET (uptime checkers probe `HEAD /`); Node sends no body for a HEAD request.
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { AppError } from '../../shared/model/errors.ts'

/** Register static files from `root` and the not-found handler. */
export async function registerSpa(app: FastifyInstance, root: string): Promise<void> {
  const indexFile = path.join(root, 'index.html')
  const built = fs.existsSync(indexFile)
  if (built) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false })
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/'
    const read = request.method === 'GET' || request.method === 'HEAD'
    if (url.startsWith('/api/') || url === '/api' || !read) {
      const err = new AppError('NOT_FOUND', { path: url })
      return reply.status(err.status).send(err.toJSON())
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send(
          'The web UI is not built yet: run `npm run build` (npm start and npm run demo do it for you).',
        )
    }
    // Assets that do not exist are real 404s; everything else is a client route.
    if (/\.[a-z0-9]+$/i.test(url)) return reply.status(404).type('text/plain').send('Not found')
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html')
  })
}
