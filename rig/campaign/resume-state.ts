/**
 * `--resume`: what an interrupted run of the same campaign already finished. Only a results.json
 * of the same campaign, seed, shard and scenario settings may be continued; a cycle counts as
 * finished when it is recorded with the id and seed the plan gives it now. A cycle that was
 * interrupted was never recorded, so it runs again.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../errors.js';
import { loadResults } from '../results/load-results.js';
import type { CampaignResults, CycleRecord } from '../results/types.js';
import type { Campaign, PlannedCycle, Shard } from './types.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';

export interface ResumeState {
  startedAt: string;
  finished: CycleRecord[];
  finishedPerf: PerfPairRecord[]; // mode: perf pairs, each a cycle of its scenario
}

/** The earlier run in `dir`, or null when there is none to continue. */
export async function readResumeState(dir: string, campaign: Campaign, shard: Shard | null, planned: PlannedCycle[]): Promise<ResumeState | null> {
  if (!existsSync(join(dir, 'results.json'))) return null;
  const { path, results } = await loadResults(dir);
  const difference = differenceFrom(results, campaign, shard);
  if (difference) {
    throw badInput(`${path}: ${difference}; --resume continues only the same campaign run: drop --resume to start over, or give another --out`);
  }
  const seeds = new Map(planned.map((c) => [c.id, c.seed]));
  // an explore state is the recording cycle's: its own seed is its plan's
  const finished = results.cycles.filter((c) => (c.explore ? seeds.get(c.explore.run) === c.explore.runSeed : seeds.get(c.id) === c.seed));
  const finishedPerf = (results.perf ?? []).filter((p) => seeds.get(p.id) === p.seed);
  return { startedAt: results.startedAt, finished, finishedPerf };
}

function differenceFrom(results: CampaignResults, campaign: Campaign, shard: Shard | null): string | null {
  if (results.campaign !== campaign.name) return `it holds campaign '${results.campaign}', not '${campaign.name}'`;
  if (results.seed !== campaign.seed) return `it was run with seed ${results.seed}, not ${campaign.seed}`;
  const shardText = (s: Shard | null) => (s ? `shard ${s.index}/${s.count}` : 'no shard');
  if (shardText(results.shard) !== shardText(shard)) return `it was run as ${shardText(results.shard)}, not ${shardText(shard)}`;
  const settings = (list: { settings: unknown }[]) => JSON.stringify(list.map((s) => s.settings));
  if (settings(results.scenarios) !== settings(campaign.scenarios)) return 'its scenarios differ from the campaign file now';
  return null;
}
