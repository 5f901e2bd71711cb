/**
 * Stage 6, recover: start the server on the crash image (served by the scan stage's disk) with a
 * bound, check the ledger, the data invariants and every table (bounded), shut down cleanly, and
 * read the error log once the process has ended. What the server does once started is recorded
 * for the judge: it died (exit code, signal), stopped answering (the rig killed it), or its
 * shutdown failed.
 */
import { rigFailure } from '../../errors.js';
import { closeQuietly, connectToServer } from '../../runtime/connect.js';
import { findRigCause } from '../../runtime/rig-cause.js';
import { classifyLine } from '../../logs/index.js';
import type { LoadResult } from '../../load/index.js';
import type { CycleRecord, RecoveryBounds, RecoveryRun, ScenarioSettings } from '../../results/types.js';
import type { ServerRuntime, StartedServer } from '../../runtime/types.js';
import type { CleanupStack } from '../cleanup-stack.js';
import { makeRunDir } from '../server-dirs.js';
import { checkRecovered, type Checked } from '../recovery-checks.js';

const EXIT_GRACE_MS = 2000; // for an exit that is already under way to be seen
const ANSWER_WAIT_MS = 5000;

export interface RecoveryResult {
  run: RecoveryRun;
  errorLog: string; // read once the process has ended, so it includes the end
  ledger: CycleRecord['ledger'];
  checkTable: CycleRecord['checkTable'];
  invariants: CycleRecord['invariants'];
}

export async function recoverServer(
  settings: ScenarioSettings,
  runtime: ServerRuntime,
  crash: { datadir: string },
  load: LoadResult,
  cleanup: CleanupStack,
  bounds: RecoveryBounds,
  signal?: AbortSignal,
): Promise<RecoveryResult> {
  const runDir = makeRunDir();
  cleanup.push('recovery run dir', async () => runDir.remove());
  const spec = { datadir: crash.datadir, runDir: runDir.path, settings: settings.server, signal };
  const startedAt = Date.now();
  const outcome = await runtime.start(spec, bounds.startMs, bounds.stallMs);
  if (!outcome.ready) {
    const exit = { exitCode: outcome.exitCode, signal: outcome.signal ?? null };
    const run: RecoveryRun = {
      bounds, readyMs: null, endedIn: 'start', timedOut: outcome.timedOut ? 'start' : null, exit, shutdown: 'not-reached',
      ...(outcome.stalled ? { stalled: outcome.stalled } : {}),
    };
    const ledger = { checked: false, acked: load.ackedCount, missing: 0, note: 'the server did not start' };
    const invariants = { checked: false, violations: [] };
    return { run, errorLog: outcome.errorLog, ledger, checkTable: { tables: 0, failed: [] }, invariants };
  }
  const readyMs = Date.now() - startedAt;
  const server = outcome.server;
  cleanup.push('recovery server', () => server.kill());
  const logAtReady = (await server.errorLog()).length;
  const ended = await checkThenStop(server, load, settings.load, bounds, signal);
  await cleanup.runNamed('recovery server');
  const errorLog = await server.errorLog();
  if (ended.run.shutdown !== 'clean') rejectRigCause(errorLog.slice(logAtReady), ended.run);
  if (ended.run.endedIn === 'shutdown' && ended.run.shutdown === 'failed' && crashedBeforeShutdown(errorLog.slice(logAtReady))) {
    ended.run.endedIn = 'checks'; // a fatal signal's handler runs while other threads still answer
  }
  return { run: { ...ended.run, bounds, readyMs }, errorLog, ...ended.checked };
}

type Ended = { run: Omit<RecoveryRun, 'bounds' | 'readyMs'>; checked: Checked };

/** Checks, then a clean shutdown; a server that dies or stops answering ends the run where it is. */
async function checkThenStop(
  server: StartedServer,
  load: LoadResult,
  dataset: ScenarioSettings['load'],
  bounds: RecoveryBounds,
  signal?: AbortSignal,
): Promise<Ended> {
  const checks = checkRecovered(server.socketPath, load, dataset, bounds.checksMs);
  const outcome = await checks.outcome;
  if (outcome.kind !== 'done') {
    const answering = outcome.kind === 'lost' && (await server.waitForExit(EXIT_GRACE_MS)) === null && (await answers(server.socketPath));
    if (signal?.aborted) throw rigFailure('recovery was aborted during the checks');
    if (answering) throw rigFailure(`the checks lost their connection while the server still answers: ${outcome.kind === 'lost' ? outcome.error : ''}`);
    const died = outcome.kind === 'lost' ? await server.waitForExit(EXIT_GRACE_MS) : null;
    if (!died) await server.kill(); // stopped answering: a hang, killed by the rig
    await checks.settled;
    const exit = await server.waitForExit(EXIT_GRACE_MS);
    const checksError = outcome.kind === 'lost' ? outcome.error : undefined;
    const timedOut = died ? null : 'checks' as const;
    return { run: { endedIn: 'checks', timedOut, exit, shutdown: 'not-reached', ...(checksError ? { checksError } : {}) }, checked: outcome.checked };
  }
  let shutdownFailed: unknown = null;
  await server.stop().catch((error: unknown) => (shutdownFailed = error));
  const exit = await server.waitForExit(EXIT_GRACE_MS);
  if (signal?.aborted) throw rigFailure('recovery was aborted during the shutdown');
  if (!exit && shutdownFailed) throw shutdownFailed; // not even SIGKILL ended it: the rig's trouble
  const clean = !shutdownFailed && exit?.exitCode === 0;
  const timedOut = shutdownFailed ? 'shutdown' as const : null;
  return { run: { endedIn: 'shutdown', timedOut, exit, shutdown: clean ? 'clean' : 'failed' }, checked: outcome.checked };
}

/** Whether the server still answers SELECT 1 (it dropped one connection but lives on). */
async function answers(socketPath: string): Promise<boolean> {
  let connection = null;
  try {
    connection = await connectToServer({ socketPath }, { connectTimeoutMs: ANSWER_WAIT_MS });
    await connection.query({ sql: 'SELECT 1', timeout: ANSWER_WAIT_MS });
    return true;
  } catch {
    return false;
  } finally {
    await closeQuietly(connection);
  }
}

const SHUTDOWN_START = /\bNormal shutdown\b|\bReceived SHUTDOWN from user\b/i;

/** The log reports a crash (a fatal signal, a failed assertion) before the shutdown began. */
export function crashedBeforeShutdown(logSinceReady: string): boolean {
  for (const line of logSinceReady.split('\n')) {
    if (SHUTDOWN_START.test(line)) return false;
    if (classifyLine(line) === 'abort') return true;
  }
  return false;
}

/** A server that ended badly because of the rig (no space, an EIO from the disk) is a rig failure. */
function rejectRigCause(logSinceReady: string, run: Ended['run']): void {
  const cause = findRigCause(logSinceReady);
  if (cause) throw rigFailure(`the server ended in its ${run.endedIn} because of the rig (${cause.reason}): ${cause.line}`);
}
