import { Check, ShieldCheck, X } from 'lucide-react'
import type { SecurityStatusInfo } from '../../auth/security-status.ts'
import { Card } from '../../components/Card.tsx'
import { MAX_SCORE, SCORE_LOOK, postureTiles, scoreLevel, securityScore } from './posture.ts'

/** Security posture (spec 001 §2 Security tab): the score out of 5 and the seven tiles. */
export function PostureCard({ status }: { status: Readonly<SecurityStatusInfo> }) {
  const score = securityScore(status)
  const level = scoreLevel(score)
  const look = SCORE_LOOK[level]
  return (
    <Card
      title="Security posture"
      icon={<ShieldCheck className="size-4" aria-hidden />}
      description="One point each for a sign-in method (password, single sign-on or proxy), an API token, export protection, HTTPS and the audit log."
    >
      <div className="flex flex-col gap-3">
        <div className="flex items-center gap-3">
          <span
            data-testid="security-score"
            data-level={level}
            className={`text-2xl font-semibold tabular-nums ${look.text}`}
          >
            {score}/{MAX_SCORE}
          </span>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <div
              role="meter"
              aria-label="Security score"
              aria-valuemin={0}
              aria-valuemax={MAX_SCORE}
              aria-valuenow={score}
              aria-valuetext={`${score} of ${MAX_SCORE}, ${look.label.toLowerCase()}`}
              className="h-2 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
            >
              <div
                className={`h-full ${look.bar}`}
                style={{ width: `${(score / MAX_SCORE) * 100}%` }}
              />
            </div>
            <span className={`text-xs font-medium ${look.text}`}>{look.label}</span>
          </div>
        </div>
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-2 xl:grid-cols-3">
          {postureTiles(status).map((tile) => (
            <li
              key={tile.label}
              data-tile={tile.label}
              data-on={tile.on}
              className={`flex min-w-0 items-start gap-2 rounded-md border px-2 py-1.5 ${
                tile.on
                  ? 'border-emerald-200 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/60'
                  : 'border-gray-200 bg-gray-50 dark:border-gray-700 dark:bg-gray-800/60'
              }`}
            >
              {tile.on ? (
                <Check
                  className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                  aria-hidden
                />
              ) : (
                <X className="mt-0.5 size-4 shrink-0 text-gray-400" aria-hidden />
              )}
              <span className="flex min-w-0 flex-col">
                <span className="text-sm font-medium break-words">{tile.label}</span>
                <span className="text-xs text-gray-600 dark:text-gray-400">{tile.detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  )
}
