/** A cycle's record before anything ran: every field present, the verdict pessimistic. */
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
