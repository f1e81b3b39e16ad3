// How a backup or restore job fails, in the contract's codes (BACKUP_FAILURE_CODES): thrown by
// the steps of a job, turned into the job's outcome in one place.
import type { BackupFailureCode } from '@debesis/contract';
import type { TaskOutcome } from '../daemons/definition.ts';
import { errorMessage } from '../logger.ts';
import { ResticError } from './restic.ts';

export class BackupJobFailure extends Error {
  constructor(
    readonly code: BackupFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackupJobFailure';
  }
}

/** A full disk, whatever step met it. */
const isNoSpace = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC' ||
  (error as NodeJS.ErrnoException | undefined)?.code === 'EDQUOT';

export function failedOutcome(error: unknown): TaskOutcome<never> {
  if (error instanceof BackupJobFailure) return { ok: false, code: error.code, error: error.message };
  if (error instanceof ResticError) return { ok: false, code: error.code, error: error.message };
  if (isNoSpace(error)) return { ok: false, code: 'no_space', error: errorMessage(error) };
  return { ok: false, code: 'failed', error: errorMessage(error) };
}
