/**
 * What perf pairs add to a campaign's outcome: a pair the rig could not measure is a rig error,
 * as a cycle's rig-error is; a finding or a running campaign outranks it. Figures pass or fail
 * nothing: how fast is not a verdict.
 */
import type { CampaignResults } from '../results/types.js';
import type { PerfPairRecord } from './perf-record.js';

type Outcome = CampaignResults['outcome'];

export function withPerfTrouble(outcome: Outcome, pairs: readonly PerfPairRecord[]): Outcome {
  return outcome === 'pass' && pairs.some((p) => p.error !== null) ? 'rig-error' : outcome;
}
