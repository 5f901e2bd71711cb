/** A cycle's record before anything ran (every field present, the verdict pessimistic), and a rig
 * failure put on it. */
import type { CycleRecord, Expectation, ScenarioSettings } from '../results/types.js';

export function emptyCycleRecord(
  id: string,
  settings: ScenarioSettings,
  cycle: number,
  seed: number,
  expectation: Expectation,
): CycleRecord {
  return {
    id,
    scenario: settings.name,
    cycle,
    seed,
    settings,
    verdict: 'rig-error',
    expectation,
    expectationHeld: false,
    reason: 'the cycle did not finish',
    cut: null,
    pendingWrites: [],
    tornPagesBefore: [],
    pagesTouched: null,
    reconciliation: null,
    checkpointLsn: null,
    pagesAfter: [],
    attribution: { doublewrite: 0, redo: 0, unexplained: 0 },
    exercised: null,
    ledger: { checked: false, acked: 0, missing: 0 },
    checkTable: { tables: 0, failed: [] },
    invariants: { checked: false, violations: [] },
    serverStarted: false,
    recovery: null,
    errorLog: { excerpt: '', events: [] },
    throughput: [],
    crashImageSha256: null,
    timings: {},
    evidenceDir: null,
    repro: '',
  };
}

/** The rig failed (`what`: an error it caught, or its teardown's problems): the record says so. */
export function markRigError(record: CycleRecord, what: unknown): void {
  record.verdict = 'rig-error';
  record.error = Array.isArray(what) ? `teardown failed: ${what.join('; ')}` : ((what as Error)?.message ?? String(what));
  record.reason = `rig error: ${record.error}`;
}
