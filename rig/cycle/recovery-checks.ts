/**
 * The checks on a recovered server (ledger, data invariants, the lifecycle tables against their
 * acknowledged steps, then CHECK TABLE on every table), bounded in time, and
 * what it means when they end early. A server answer (an SQL error) is evidence about the data; a
 * lost connection, a failed connect or the bound passing says the server died or stopped
 * answering: the caller looks at the process to tell which. Only an answer the rig can tie to
 * itself (its own SQL or access, a full disk, a rig cause in the message) is a rig failure.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { checkInvariants } from '../checks/invariants.js';
import { checkLifecycle } from '../checks/lifecycle.js';
import { verifyLedger } from '../checks/ledger.js';
import { checkTables } from '../checks/tables.js';
import { rigFailure } from '../errors.js';
import type { LoadResult } from '../load/index.js';
import { isConnectionLost, isRigSqlError, isServerAnswer } from '../load/load-errors.js';
import type { CycleRecord, LifecycleSteps, LoadSettings } from '../results/types.js';
import { closeQuietly, connectToServer } from '../runtime/connect.js';
import { findRigCause } from '../runtime/rig-cause.js';

export interface Checked {
  ledger: CycleRecord['ledger'];
  checkTable: CycleRecord['checkTable'];
  invariants: CycleRecord['invariants'];
}

/** How the checks ended: all run, cut short by the server going away, or past their bound. */
export type ChecksOutcome =
  | { kind: 'done'; checked: Checked }
  | { kind: 'lost'; checked: Checked; error: string }
  | { kind: 'timeout'; checked: Checked };

type DbError = { errno?: number; code?: string; sqlState?: string; message?: string };

// Disk full (ER_DISK_FULL, ER_RECORD_FILE_FULL): the rig sized the disk.
const FULL_DISK_ERRNOS = [1021, 1114];

/** The server went away, refused the connection, or did not answer in time. */
function isLinkLost(error: unknown): boolean {
  return isConnectionLost(error) || (error as DbError)?.code === 'ETIMEDOUT';
}

/** Throws a rig failure when the server's answer blames the rig rather than the data. */
export function rejectRigAnswer(error: unknown, what: string): void {
  const e = error as DbError;
  const message = e?.message ?? String(error);
  const errno = e?.errno ?? -1;
  const cause = isRigSqlError(error) ? 'the rig\'s own query or access'
    : FULL_DISK_ERRNOS.includes(errno) ? 'no space left'
    : findRigCause(message)?.reason;
  if (cause) throw rigFailure(`${what} failed because of the rig (${cause}): ${message}`, error);
}

const notChecked = (load: LoadResult): Checked => ({
  ledger: { checked: false, acked: load.ackedCount, missing: 0, note: 'the checks ended before the ledger was read' },
  checkTable: { tables: 0, failed: [] },
  invariants: { checked: false, violations: [] },
});

type Connection = Awaited<ReturnType<typeof connectToServer>>;

/** The ledger, and its rows ahead of what their clients could have committed (an invariant). */
async function readLedger(connection: Connection, load: LoadResult): Promise<{ ledger: Checked['ledger']; unexplained: string[] }> {
  if (!load.ledger) return { ledger: { checked: false, acked: load.ackedCount, missing: 0, note: load.note ?? 'the load kept no ledger' }, unexplained: [] };
  try {
    const ledger = await verifyLedger(connection, load);
    return { ledger: { checked: true, acked: ledger.acked, missing: ledger.missing }, unexplained: ledger.unexplained };
  } catch (error) {
    if (!isServerAnswer(error)) throw error;
    rejectRigAnswer(error, 'reading the ledger');
    const message = (error as Error).message;
    return { ledger: { checked: false, acked: load.ackedCount, missing: 0, note: 'the server could not read the ledger', error: message }, unexplained: [] };
  }
}

async function readInvariants(connection: Connection, load: LoadResult, dataset: LoadSettings): Promise<string[]> {
  try {
    return (await checkInvariants(connection, { tables: dataset.tables, rows: dataset.rows, ledger: load.ledger })).violations;
  } catch (error) {
    if (!isServerAnswer(error)) throw error;
    rejectRigAnswer(error, 'checking the data invariants');
    return [`the server could not answer the invariant queries: ${(error as Error).message}`];
  }
}

/** The lifecycle steps against the recovered tables, when the load had any. */
async function readLifecycle(connection: Connection, load: LoadResult): Promise<{ steps?: LifecycleSteps; violations: string[] }> {
  if (!load.lifecycle) return { violations: [] };
  try {
    const { acked, missing, lost, violations } = await checkLifecycle(connection, load.lifecycle);
    return { steps: { acked, missing, lost }, violations };
  } catch (error) {
    if (!isServerAnswer(error)) throw error;
    rejectRigAnswer(error, 'checking the lifecycle tables');
    return { violations: [`the server could not answer the lifecycle queries: ${(error as Error).message}`] };
  }
}

/** Runs the checks, filling `checked` as they go, so a cut-short run keeps what it found. */
async function runChecks(socketPath: string, load: LoadResult, dataset: LoadSettings, checked: Checked): Promise<string | null> {
  let connection = null;
  try {
    connection = await connectToServer({ socketPath });
    const { ledger, unexplained } = await readLedger(connection, load);
    checked.ledger = ledger;
    const violations = await readInvariants(connection, load, dataset);
    const lifecycle = await readLifecycle(connection, load);
    if (lifecycle.steps) checked.ledger = { ...checked.ledger, steps: lifecycle.steps };
    checked.invariants = { checked: true, violations: [...violations, ...unexplained, ...lifecycle.violations] };
    const tables = await checkTables(connection);
    checked.checkTable = { tables: tables.tables, failed: tables.failed };
    if (tables.lost !== undefined) return tables.lost;
    for (const complaint of tables.failed) rejectRigAnswer({ message: complaint }, 'CHECK TABLE');
    return null;
  } catch (error) {
    if (isLinkLost(error)) return (error as Error).message ?? String(error);
    if (!isServerAnswer(error)) throw error; // the rig's own failure
    rejectRigAnswer(error, 'the checks');
    checked.checkTable.failed.push(`the server could not list the tables: ${(error as Error).message}`);
    return null;
  } finally {
    await closeQuietly(connection);
  }
}

/**
 * The checks, bounded by timeoutMs. On 'timeout' the checks may still be waiting on the server:
 * the caller kills it, then awaits `settled` so no connection outlives the cycle.
 */
export function checkRecovered(
  socketPath: string,
  load: LoadResult,
  dataset: LoadSettings,
  timeoutMs: number,
): { outcome: Promise<ChecksOutcome>; settled: Promise<unknown> } {
  const checked = notChecked(load);
  const checks = runChecks(socketPath, load, dataset, checked);
  const timer = new AbortController();
  const bound = sleep(timeoutMs, 'timeout' as const, { signal: timer.signal }).catch(() => null);
  const outcome = Promise.race([checks, bound]).then((first): ChecksOutcome => {
    if (first === 'timeout') return { kind: 'timeout', checked };
    timer.abort();
    return first === null ? { kind: 'done', checked } : { kind: 'lost', checked, error: first };
  }, (error: unknown) => {
    timer.abort();
    throw error;
  });
  return { outcome, settled: checks.catch(() => undefined) };
}
