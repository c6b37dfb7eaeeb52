// Diagnostics routes (spec 001 §2 Diagnostics tab, §7; wire-protocol.md §3.10). A run talks to
// every configured endpoint with its stored credentials, so it needs an admin, like the
// connection tests; concurrent clicks share one run instead of multiplying requests to Proxmox.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import type { DiagnosticsReport } from '../../shared/model/diagnostics.ts'
import { requireAdmin } from '../auth/guard.ts'
import { buildDiagnosticsExport } from '../diagnostics/diagnostics-export.ts'
import { runDiagnostics, type DiagnosticsSources } from '../diagnostics/run-diagnostics.ts'

interface ExportQuery {
  sanitize?: string
}

/** Values that must never leave the server, whatever a message quoted. */
function secretsOf(src: DiagnosticsSources): string[] {
  return src.endpoints().map((e) => (e.auth.kind === 'token' ? e.auth.secret : e.auth.password))
}

/** Drop every occurrence of a secret from a JSON-able document (defence in depth). */
function scrubSecrets<T>(doc: T, secrets: readonly string[]): T {
  let json = JSON.stringify(doc)
  for (const secret of secrets) {
    if (secret.length < 4) continue
    const quoted = JSON.stringify(secret).slice(1, -1)
    json = json.split(quoted).join('[redacted]')
  }
  return JSON.parse(json) as T
}

/** Register GET /api/diagnostics and GET /api/diagnostics/export. */
export function registerDiagnosticsRoutes(app: FastifyInstance, src: DiagnosticsSources): void {
  let running: Promise<DiagnosticsReport> | null = null
  let last: DiagnosticsReport | null = null
  const run = (): Promise<DiagnosticsReport> => {
    running ??= runDiagnostics(src)
      .then((report) => {
        last = report
        return report
      })
      .finally(() => {
        running = null
      })
    return running
  }

  app.get('/api/diagnostics', async (request, reply) => {
    requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return scrubSecrets(await run(), secretsOf(src))
  })

  app.get<{ Querystring: ExportQuery }>('/api/diagnostics/export', async (request, reply) => {
    requireAdmin(request)
    const raw = request.query.sanitize ?? 'false'
    if (raw !== 'true' && raw !== 'false') {
      throw new AppError('FIELD_INVALID', { field: 'sanitize', problem: 'must be true or false' })
    }
    const sanitize = raw === 'true'
    // The report the user just looked at; a run only when there was none yet.
    const report = last ?? (await run())
    const secrets = secretsOf(src)
    const now = src.now()
    const doc = buildDiagnosticsExport({
      report,
      nodes: src.nodes(),
      state: src.state(),
      now,
      sanitize,
      secrets,
    })
    const day = new Date(now).toISOString().slice(0, 10)
    const name = `pulse-diagnostics-${sanitize ? 'github-' : ''}${day}.json`
    reply.header('Cache-Control', 'no-store')
    reply.header('Content-Disposition', `attachment; filename="${name}"`)
    return reply.type('application/json').send(JSON.stringify(scrubSecrets(doc, secrets), null, 2))
  })
}
