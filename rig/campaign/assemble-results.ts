/**
 * A campaign's results.json content at any moment: the run's fixed facts, the records so far in
 * the campaign's order, and summaries and outcome recomputed from those records. While the run
 * goes on the outcome is `running`; a run that stopped early is never mistaken for a finished one.
 */
import { campaignOutcome, cyclesPerHour, summarizeScenarios, type ScenarioPlan } from '../results/summarize.js';
import { RESULTS_VERSION, type CampaignResults, type CycleRecord, type Environment } from '../results/types.js';
import type { Shard } from './types.js';
import type { EvidencePolicy } from './evidence-policy.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';
import { withPerfTrouble } from '../results/perf-outcome.js';

export interface RunFacts {
  campaign: string;
  file: string;
  commandLine: string;
  startedAt: string;
  shard: Shard | null;
  seed: number;
  environment: Environment;
  /** Which cycles keep evidence, under what cap. */
  evidence?: EvidencePolicy;
}

export interface RunRate {
  cycles: number; // cycles this invocation ran (a resumed run's earlier cycles took other time)
  since: string; // when this invocation started
}

export function assembleResults(
  facts: RunFacts,
  plans: ScenarioPlan[],
  records: CycleRecord[],
  finishedAt: string | null,
  rate: RunRate,
  perf?: PerfPairRecord[], // mode: perf scenarios' pairs; absent when the campaign has none
): CampaignResults {
  const scenarios = summarizeScenarios(plans, records);
  return {
    version: RESULTS_VERSION,
    ...facts,
    finishedAt,
    scenarios,
    cycles: records,
    ...(perf ? { perf } : {}),
    outcome: withPerfTrouble(campaignOutcome(scenarios, finishedAt !== null), perf ?? [], scenarios),
    cyclesPerHour: cyclesPerHour(rate.cycles, rate.since, finishedAt),
  };
}
