/**
 * Whether one cycle met its scenario's expectation (docs/design.md, "The oracle: verdicts"; the verdicts are
 * described in rig/cycle/judge.ts).
 * - recovers: only `restored` and `no-torn` hold; every other outcome contradicts it (a refusal,
 *   a crash, a hang, a failed shutdown, corruption, a lost commit).
 * - never-torn: only `no-torn` holds (with nothing torn).
 * - torn-reproduced (the negative control): any cycle whose crash image held a torn page holds it,
 *   whatever the server then did. A cycle that tore nothing does not contradict it on its own
 *   (the scenario is blind when no cycle tore), unless it shows a finding no tear explains: a lost
 *   commit, corruption (reported or silent), a crash, a hang or a failed shutdown. A refusal to
 *   start with nothing torn (`refused`, `detected` by a logged complaint) is left to the blindness
 *   check: a write torn outside the pages the rig maps (the redo log) can make the server refuse.
 * - detects (MySQL's innodb_doublewrite=DETECT_ONLY, which records page ids and LSNs, no copies):
 *   a torn page must never pass silently. `no-torn`, `restored` (redo rebuilt every torn page) and
 *   `detected` (the server refused to start and said why) hold; everything else contradicts it,
 *   like recovers. Like the negative control, a scenario whose cycles never tore is blind.
 * - commits-kept (the load's tables on RocksDB): the server starts with every acknowledged commit
 *   present and its checks pass (`restored` or `no-torn`: InnoDB's own system pages may still
 *   tear and must come back), or it refuses to start on a torn write-ahead-log tail and says so
 *   (`wal-tail-refused`: a fail-stop under RocksDB's default recovery mode, not corruption).
 *   Everything else contradicts it, the atomic unit whatever it is.
 * rig-error meets nothing and contradicts nothing: the summary counts it on its own.
 */
import type { Expectation, Verdict } from './types.js';

/** Findings no torn page explains: with nothing torn they contradict even the negative control. */
const UNEXPLAINED_WITHOUT_TEAR: ReadonlySet<Verdict> = new Set<Verdict>([
  'lost-commit',
  'silent-corruption',
  'reported-corruption',
  'crashed',
  'hung',
  'shutdown-crash',
]);

export function expectationHolds(expectation: Expectation, verdict: Verdict, tornCount: number): boolean {
  if (verdict === 'rig-error') return false;
  switch (expectation) {
    case 'recovers':
      return verdict === 'restored' || verdict === 'no-torn';
    case 'never-torn':
      return verdict === 'no-torn' && tornCount === 0;
    case 'torn-reproduced':
      return tornCount > 0 || !UNEXPLAINED_WITHOUT_TEAR.has(verdict);
    case 'detects':
      return verdict === 'restored' || verdict === 'no-torn' || verdict === 'detected';
    case 'commits-kept':
      return verdict === 'restored' || verdict === 'no-torn' || verdict === 'wal-tail-refused';
  }
}

/** Expectations whose claim needs torn pages: a scenario that never tore one is blind. */
export function needsTear(expectation: Expectation): boolean {
  return expectation === 'torn-reproduced' || expectation === 'detects';
}

/** Whether a cycle contradicted its expectation: a database finding, as opposed to a rig error. */
export function contradicts(expectation: Expectation, verdict: Verdict, tornCount: number): boolean {
  return verdict !== 'rig-error' && !expectationHolds(expectation, verdict, tornCount);
}
