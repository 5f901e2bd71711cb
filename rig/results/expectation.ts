/**
 * Whether one cycle met its scenario's expectation (DESIGN.md, "The oracle").
 * - recovers: the server came back with every torn page restored, or nothing tore.
 * - never-torn: nothing tore and the server came back with the data verified.
 * - torn-reproduced (the negative control): any cycle whose crash image held a torn page meets it,
 *   whatever the server then did; a cycle that tore nothing does not contradict it on its own
 *   (the scenario is blind when no cycle tore), unless it shows a finding no tear explains:
 *   a lost commit or silent corruption.
 * lost-commit and silent-corruption contradict recovers and never-torn, always.
 * rig-error meets nothing and contradicts nothing: the summary counts it on its own.
 */
import type { Expectation, Verdict } from './types.js';

export function expectationHolds(expectation: Expectation, verdict: Verdict, tornCount: number): boolean {
  if (verdict === 'rig-error') return false;
  switch (expectation) {
    case 'recovers':
      return verdict === 'restored' || verdict === 'no-torn';
    case 'never-torn':
      return verdict === 'no-torn' && tornCount === 0;
    case 'torn-reproduced':
      return tornCount > 0 || (verdict !== 'lost-commit' && verdict !== 'silent-corruption');
  }
}

/** Whether a cycle contradicted its expectation: a database finding, as opposed to a rig error. */
export function contradicts(expectation: Expectation, verdict: Verdict, tornCount: number): boolean {
  return verdict !== 'rig-error' && !expectationHolds(expectation, verdict, tornCount);
}
