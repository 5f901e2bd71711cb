/** Sorting the errors a load client meets: retry, lost server, or something else. */
import type { LoadError } from './types.js';

const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;
const SERVER_GONE_ERRNOS = [2002, 2006, 2013, 1053]; // can't connect, gone away, lost, shutdown
const SERVER_GONE_CODES = ['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ENOENT'];

type DbError = { code?: string; errno?: number; fatal?: boolean; message?: string; sqlState?: string };

/** Rolled back by InnoDB's lock handling: roll back and run the transaction again. */
export function isRetryable(error: unknown): boolean {
  const errno = (error as DbError)?.errno;
  return errno === DEADLOCK || errno === LOCK_WAIT_TIMEOUT;
}

/** The connection is dead: the server went away (at a cut, it was killed). */
export function isConnectionLost(error: unknown): boolean {
  const e = error as DbError;
  return (
    e?.fatal === true ||
    SERVER_GONE_CODES.includes(e?.code ?? '') ||
    SERVER_GONE_ERRNOS.includes(e?.errno ?? -1)
  );
}

// Parse error, unknown column, access denied (three forms): the rig's own SQL or setup.
export const RIG_SQL_ERRNOS = [1064, 1054, 1044, 1045, 1142];

/** The server refused the rig's own statement (its SQL or its access), not anything about the data. */
export function isRigSqlError(error: unknown): boolean {
  return RIG_SQL_ERRNOS.includes((error as DbError)?.errno ?? -1);
}

/** An error the server sent as an answer (it is alive and talking), as opposed to a lost link. */
export function isServerAnswer(error: unknown): boolean {
  return typeof (error as DbError)?.sqlState === 'string' && !isConnectionLost(error);
}

export function toLoadError(client: number, atMs: number, error: unknown): LoadError {
  const e = error as DbError;
  return {
    client,
    atMs: Math.round(atMs),
    code: e?.code ?? (e?.errno !== undefined ? String(e.errno) : null),
    message: e?.message ?? String(error),
    connectionLost: isConnectionLost(error),
  };
}
