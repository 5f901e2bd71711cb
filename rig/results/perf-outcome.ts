/**
 * What perf pairs add to a campaign's outcome: a pair the rig could not measure, or a perf
 * scenario with fewer pairs than planned (a shard or run that stopped early), is a rig error, as a
 * cycle's rig-error or a missing cycle is; a finding or a running campaign outranks it. Figures
 * pass or fail nothing: how fast is not a verdict.
 */
import type { CampaignResults, ScenarioSummary } from './types.js';
import type { PerfPairRecord } from './perf-pair-record.js';

type Outcome = CampaignResults['outcome'];

/** Perf scenarios with fewer pairs than planned, as `name: run/planned`. */
export function missingPairs(pairs: readonly PerfPairRecord[], scenarios: readonly ScenarioSummary[]): string[] {
  return scenarios.flatMap((s) => {
    const run = pairs.filter((p) => p.scenario === s.name).length;
    return s.pairsPlanned !== undefined && run < s.pairsPlanned ? [`${s.name}: ${run}/${s.pairsPlanned}`] : [];
  });
}

export function withPerfTrouble(outcome: Outcome, pairs: readonly PerfPairRecord[], scenarios: readonly ScenarioSummary[]): Outcome {
  if (outcome !== 'pass') return outcome;
  return pairs.some((p) => p.error !== null) || missingPairs(pairs, scenarios).length > 0 ? 'rig-error' : outcome;
}
