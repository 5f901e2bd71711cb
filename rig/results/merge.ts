/**
 * Merges the results of a campaign's shards into the results one unsharded run would have
 * written: every cycle once, in the unsharded order, summaries and outcome recomputed from the
 * cycles. Refuses shards of different campaigns (name, seed or scenarios differ), shards that
 * overlap, and an incomplete set of shards.
 */
import { isAbsolute, join, relative } from 'node:path';
import { badInput } from '../errors.js';
import type { LoadedResults } from './load-results.js';
import { campaignOutcome, cyclesPerHour, summarizeScenarios } from './summarize.js';
import type { CampaignResults, CycleRecord } from './types.js';
import type { PerfPairRecord } from './perf-pair-record.js';
import { withPerfTrouble } from './perf-outcome.js';

export interface MergeOptions {
  outDir: string; // where the merged results.json goes: evidence paths are rewritten against it
  commandLine: string;
}

export function mergeResults(inputs: LoadedResults[], options: MergeOptions): CampaignResults {
  if (inputs.length === 0) throw badInput('nothing to merge; give the folders of every shard');
  const first = inputs[0]!;
  for (const input of inputs.slice(1)) checkSameCampaign(first, input);
  checkShards(inputs);
  const cycles = orderCycles(first.results, inputs.flatMap((input) => rebaseEvidence(input, options.outDir)));
  const planned = (name: string, key: 'cyclesPlanned' | 'pairsPlanned'): number =>
    inputs.reduce((sum, i) => sum + (i.results.scenarios.find((t) => t.name === name)![key] ?? 0), 0);
  const plans = first.results.scenarios.map((s) => ({
    settings: s.settings,
    cyclesPlanned: planned(s.name, 'cyclesPlanned'),
    ...(s.settings.perf ? { pairsPlanned: planned(s.name, 'pairsPlanned') } : {}),
  }));
  const scenarios = summarizeScenarios(plans, cycles);
  const perf = first.results.perf ? orderPairs(first.results, inputs.flatMap((input) => input.results.perf ?? [])) : null;
  const startedAt = inputs.map((i) => i.results.startedAt).sort()[0]!;
  const finished = inputs.every((i) => i.results.finishedAt !== null);
  const finishedAt = finished ? inputs.map((i) => i.results.finishedAt!).sort().at(-1)! : null;
  return {
    ...first.results,
    commandLine: options.commandLine,
    startedAt,
    finishedAt,
    shard: null,
    scenarios,
    cycles,
    ...(perf ? { perf } : {}),
    outcome: withPerfTrouble(campaignOutcome(scenarios, true), perf ?? [], scenarios),
    cyclesPerHour: cyclesPerHour(cycles.length, startedAt, finishedAt),
  };
}

function checkSameCampaign(a: LoadedResults, b: LoadedResults): void {
  const differ = (what: string) =>
    badInput(`${b.path}: ${what} differs from ${a.path}; merge only the shards of one campaign run (same file, same --seed)`);
  if (a.results.campaign !== b.results.campaign) throw differ(`campaign '${b.results.campaign}'`);
  if (a.results.seed !== b.results.seed) throw differ(`seed ${b.results.seed}`);
  const settings = (r: CampaignResults) => JSON.stringify(r.scenarios.map((s) => s.settings));
  if (settings(a.results) !== settings(b.results)) throw differ('the scenario list');
}

function checkShards(inputs: LoadedResults[]): void {
  const unsharded = inputs.find((i) => i.results.shard === null);
  if (unsharded && inputs.length > 1) {
    throw badInput(`${unsharded.path} is an unsharded run, which overlaps any other results; merge only the shards (--shard I/N) of one run`);
  }
  if (unsharded) return;
  const counts = [...new Set(inputs.map((i) => i.results.shard!.count))];
  if (counts.length > 1) throw badInput(`the shards were cut ${counts.join(' and ')} ways; merge the shards of one --shard I/N split`);
  const count = counts[0]!;
  const byIndex = new Map<number, string>();
  for (const input of inputs) {
    const { index } = input.results.shard!;
    const other = byIndex.get(index);
    if (other) throw badInput(`${input.path} and ${other} are both shard ${index}/${count}; give each shard once`);
    byIndex.set(index, input.path);
  }
  for (let index = 1; index <= count; index++) {
    if (!byIndex.has(index)) throw badInput(`shard ${index}/${count} is missing; give its folder too (some of the shards would not equal one run)`);
  }
}

/** Cycles in the unsharded order: scenario by scenario as the campaign lists them, then by cycle. */
function orderCycles(template: CampaignResults, cycles: CycleRecord[]): CycleRecord[] {
  const rank = new Map(template.scenarios.map((s, i) => [s.name, i]));
  const ids = new Set<string>();
  for (const c of cycles) {
    if (ids.has(c.id)) throw badInput(`cycle ${c.id} appears in more than one shard; the shards overlap, so merge each shard once`);
    if (!rank.has(c.scenario)) throw badInput(`cycle ${c.id} belongs to no scenario of the campaign; the results file is damaged`);
    ids.add(c.id);
  }
  return [...cycles].sort((a, b) => rank.get(a.scenario)! - rank.get(b.scenario)! || a.cycle - b.cycle);
}

/** Perf pairs in the unsharded order, each once, as cycles are. */
function orderPairs(template: CampaignResults, pairs: PerfPairRecord[]): PerfPairRecord[] {
  const rank = new Map(template.scenarios.map((s, i) => [s.name, i]));
  const ids = new Set<string>();
  for (const p of pairs) {
    if (ids.has(p.id)) throw badInput(`perf pair ${p.id} appears in more than one shard; the shards overlap, so merge each shard once`);
    if (!rank.has(p.scenario)) throw badInput(`perf pair ${p.id} belongs to no scenario of the campaign; the results file is damaged`);
    ids.add(p.id);
  }
  return [...pairs].sort((a, b) => rank.get(a.scenario)! - rank.get(b.scenario)! || a.cycle - b.cycle);
}

/** Evidence stays where the shard kept it: its path is made relative to the merged folder. */
function rebaseEvidence(input: LoadedResults, outDir: string): CycleRecord[] {
  return input.results.cycles.map((c) =>
    c.evidenceDir === null || isAbsolute(c.evidenceDir)
      ? c
      : { ...c, evidenceDir: relative(outDir, join(input.dir, c.evidenceDir)) || '.' },
  );
}
