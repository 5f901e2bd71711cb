/**
 * The rig's one error class. `code` says whose fault it was, and so the exit code:
 * bad input is the user's (2), a rig failure is ours (3), a finding is the database's (1).
 * The disk, which imports nothing of the rig, throws its own DiskError with the same codes.
 */
import { DiskError } from '../faults/disk-error.js';

export type RigErrorCode = 'bad-input' | 'rig-failure' | 'finding';

const EXIT_CODES: Record<RigErrorCode, number> = {
  'finding': 1,
  'bad-input': 2,
  'rig-failure': 3,
};

export class RigError extends Error {
  readonly code: RigErrorCode;

  constructor(code: RigErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RigError';
    this.code = code;
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** Bad input: one line naming what was wrong and the fix. Exit code 2. */
export function badInput(message: string, cause?: unknown): RigError {
  return new RigError('bad-input', message, { cause });
}

/** The rig itself failed (timeout, setup, a tool that broke). Exit code 3. */
export function rigFailure(message: string, cause?: unknown): RigError {
  return new RigError('rig-failure', message, { cause });
}

/** Exit code for any thrown value: a RigError's or a DiskError's own, else a rig failure. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof RigError) return error.exitCode;
  return error instanceof DiskError ? EXIT_CODES[error.code] : EXIT_CODES['rig-failure'];
}
