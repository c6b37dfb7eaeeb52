// The Diagnostics tab's calls (spec 001 §7 diagnostics routes; §8 "Failed to run diagnostics").
// Each throws an Error whose message is the text to show.
import type { DiagnosticsReport } from '../../../shared/model/diagnostics.ts'
import { HttpError, apiFetch, apiJson } from '../../api/http.ts'
import { extractErrorText } from '../../api/errors.ts'
import { downloadText } from '../../auth/download.ts'
import { filenameFromDisposition } from '../security/security-api.ts'

export const RUN_FAILED = 'Failed to run diagnostics'
export const EXPORT_FAILED = 'Export failed'

function failure(error: unknown, fallback: string): Error {
  if (error instanceof HttpError && error.status < 500 && error.message) {
    return new Error(`${fallback}: ${error.message}`)
  }
  return new Error(fallback)
}

/** GET /api/diagnostics: every configured endpoint checked live now. */
export async function runDiagnostics(): Promise<DiagnosticsReport> {
  let report: DiagnosticsReport | null
  try {
    report = await apiJson<DiagnosticsReport>('/api/diagnostics')
  } catch (error) {
    throw failure(error, RUN_FAILED)
  }
  if (!report || !Array.isArray(report.nodes) || !Array.isArray(report.pbs)) {
    throw new Error(RUN_FAILED)
  }
  return report
}

/** The name a download gets when the server sends none. */
export function defaultDiagnosticsName(sanitized: boolean, now = new Date()): string {
  return `pulse-diagnostics-${sanitized ? 'github-' : ''}${now.toISOString().slice(0, 10)}.json`
}

/** GET /api/diagnostics/export and save it as a file. */
export async function downloadDiagnostics(sanitized: boolean): Promise<string> {
  let res: Response
  try {
    res = await apiFetch(`/api/diagnostics/export?sanitize=${sanitized ? 'true' : 'false'}`)
  } catch {
    throw new Error(EXPORT_FAILED)
  }
  const text = await res.text()
  if (!res.ok)
    throw failure(new HttpError(res.status, extractErrorText(res.status, text)), EXPORT_FAILED)
  const name =
    filenameFromDisposition(res.headers.get('Content-Disposition')) ??
    defaultDiagnosticsName(sanitized)
  downloadText(name, text, 'application/json')
  return name
}
