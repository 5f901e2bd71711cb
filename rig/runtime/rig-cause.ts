/**
 * Recognises error-log lines that blame the rig's environment, not the data: a server that cannot
 * start because of them is a rig failure. Only causes a power cut cannot produce are listed (a
 * missing tablespace file or a page-size mismatch can be the cut's doing, so they are not here).
 */

export interface RigCause {
  reason: string;
  line: string;
}

const ERRNO = (n: number) =>
  new RegExp(`(?:Errcode|errno|error number|OS error(?: code)?):? ?${n}\\b`, 'i');

const CAUSES: Array<{ reason: string; patterns: RegExp[] }> = [
  { reason: 'socket path too long', patterns: [/socket file path is too long/i] },
  { reason: 'no space left', patterns: [/No space left on device/i, /\bDisk (?:is )?full\b/i, ERRNO(28)] },
  { reason: 'read-only file system', patterns: [/Read-only file system/i, ERRNO(30)] },
  {
    reason: 'permission denied',
    patterns: [/Permission denied/i, /Operation not permitted/i, ERRNO(13), ERRNO(1)],
  },
  {
    reason: 'datadir missing',
    patterns: [/Can't change dir to/i, /designated data directory .* (?:is unusable|does not exist)/i],
  },
  { reason: 'I/O error from the disk', patterns: [/Input\/output error/i, ERRNO(5)] },
  {
    reason: 'another server on the same datadir or socket',
    patterns: [
      /Unable to lock .* error: 11/i,
      /Another process with pid \d+ is using unix socket/i,
      /Do you already have another (?:mysqld|mariadbd) server running/i,
      /Bind on unix socket/i,
    ],
  },
  { reason: 'out of memory', patterns: [/Cannot allocate memory/i, /\bmmap\(.*\) failed/i, /Out of memory/i] },
  { reason: 'too many open files', patterns: [/Too many open files/i, ERRNO(24)] },
  { reason: 'option the server does not know', patterns: [/unknown (?:variable|option)/i] },
];

/**
 * Lines that name a cause the server carries on past: MySQL in a container without CAP_SYS_NICE
 * is refused its NUMA memory policy calls ("get_mempolicy: Operation not permitted", "Failed to
 * set NUMA memory policy ...") and starts anyway.
 */
const SURVIVED = [/^get_mempolicy: /, /\bNUMA memory policy\b/];

/** The first line of the log that names a rig cause, or null. */
export function findRigCause(errorLog: string): RigCause | null {
  for (const line of errorLog.split('\n')) {
    if (SURVIVED.some((pattern) => pattern.test(line))) continue;
    for (const cause of CAUSES) {
      if (cause.patterns.some((pattern) => pattern.test(line))) return { reason: cause.reason, line: line.trim() };
    }
  }
  return null;
}
