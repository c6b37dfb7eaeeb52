// One error handler: AppErrors answer { code, message }; anything else is a logged 500.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'

/**
 * Install the error and not-found handlers for /api. `storageError` turns a failure of the data
 * file into its 503 naming the file (store/storage-health.ts), instead of a bare 500.
 */
export function installErrorHandler(
  app: FastifyInstance,
  options: { storageError?: (err: unknown) => AppError | null } = {},
): void {
  app.setErrorHandler((err, request, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) request.log.warn({ err }, err.message)
      return reply.status(err.status).send(err.toJSON())
    }
    const fastifyErr = err as { statusCode?: number; message?: string; code?: string }
    if (fastifyErr.statusCode && fastifyErr.statusCode < 500) {
      // Fastify's own 4xx: unparseable JSON, body too large, unsupported media type.
      const field = fastifyErr.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Content-Type' : 'body'
      return reply.status(fastifyErr.statusCode).send({
        code: fastifyErr.statusCode === 400 ? 'FIELD_INVALID' : 'BODY_INVALID',
        message: `${field}: ${fastifyErr.message ?? 'invalid request'}.`,
      })
    }
    const storage = options.storageError?.(err)
    if (storage) {
      request.log.error({ err }, storage.message)
      return reply.status(storage.status).send(storage.toJSON())
    }
    request.log.error({ err }, 'unhandled error')
    return reply.status(500).send(new AppError('INTERNAL').toJSON())
  })
}
