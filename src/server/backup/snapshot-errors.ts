// The error of a snapshot that cannot be read or written back: the file is damaged.
import { AppError } from '../../shared/model/errors.ts'

/** IMPORT_DAMAGED with the reason kept for the logs only. */
export function snapshotDamaged(reason: string, cause?: unknown): AppError {
  return new AppError('IMPORT_DAMAGED', {}, { cause: cause ?? new Error(reason) })
}
