/**
 * Merges the results of a campaign's shards into the results one unsharded run would have
 * written: every cycle once, in the unsharded order, summaries and outcome recomputed from the
 * cycles. Refuses shards of different campaigns (name, seed or scenarios differ), shards that
 * overlap, and an incomplete set of shards. The records stream from the shards' files to OUT's
 * (merge-records.ts), tallied as they pass, so a merge of any size holds a record per shard.
 */
import { mkdir } from 'node:fs/promises';
import { badInput } from '../errors.js';
import { checkAborted } from '../interrupts.js';
import { CampaignOrder, compareKeys } from './campaign-order.js';
import type { OpenedResults } from './load-results.js';
import { mergeRecords } from './merge-records.js';
import type { PerfPairRecord } from './perf-pair-record.js';
import { withPerfTrouble } from './perf-outcome.js';
import { CYCLES_FILE, writeCycleRecords, writeSummaryFile } from './results-file.js';
import { campaignOutcome, cyclesPerHour, ScenarioTallies } from './summarize.js';
import { RESULTS_VERSION, type CycleRecord, type ResultsSummary } from './types.js';

export interface MergeOptions {
  outDir: string; // where the merged results go: evidence paths are rewritten against it
  commandLine: string;
  signal?: AbortSignal; // aborted: no record after it is written, and OUT/results.json is not
  beforeReplacing?: () => void; // once every record is merged, before the first file in OUT is replaced
}

/** Writes OUT/cycles.jsonl, then OUT/results.json, and returns the merged summary. Nothing is
 * written when the shards' summaries are refused; nothing replaces OUT's files when a record is. */
export async function mergeResults(inputs: OpenedResults[], options: MergeOptions): Promise<ResultsSummary> {
  if (inputs.length === 0) throw badInput('nothing to merge; give the folders of every shard');
  const first = inputs[0]!;
  for (const input of inputs.slice(1)) checkSameCampaign(first, input);
  checkShards(inputs);
  const order = new CampaignOrder(first.summary.scenarios.map((s) => s.name));
  const perf = first.summary.perf ? orderPairs(order, inputs.flatMap((input) => input.summary.perf ?? [])) : null;
  const planned = (name: string, key: 'cyclesPlanned' | 'pairsPlanned'): number =>
    inputs.reduce((sum, i) => sum + (i.summary.scenarios.find((t) => t.name === name)![key] ?? 0), 0);
  const tallies = new ScenarioTallies(first.summary.scenarios.map((s) => ({
    settings: s.settings,
    cyclesPlanned: planned(s.name, 'cyclesPlanned'),
    ...(s.settings.perf ? { pairsPlanned: planned(s.name, 'pairsPlanned') } : {}),
  })));
  await mkdir(options.outDir, { recursive: true });
  const merged = untilAborted(tallied(mergeRecords(inputs, order, options.outDir), tallies), options.signal);
  const count = await writeCycleRecords(options.outDir, endingWith(merged, () => options.beforeReplacing?.()));
  checkAborted(options.signal);
  const scenarios = tallies.summaries();
  const startedAt = inputs.map((i) => i.summary.startedAt).sort()[0]!;
  const finished = inputs.every((i) => i.summary.finishedAt !== null);
  const finishedAt = finished ? inputs.map((i) => i.summary.finishedAt!).sort().at(-1)! : null;
  const { perf: _perf, cycles: _cycles, ...facts } = first.summary;
  const summary: ResultsSummary = {
    ...facts,
    version: RESULTS_VERSION,
    commandLine: options.commandLine,
    startedAt,
    finishedAt,
    shard: null,
    scenarios,
    ...(perf ? { perf } : {}),
    outcome: withPerfTrouble(campaignOutcome(scenarios, true), perf ?? [], scenarios),
    cyclesPerHour: cyclesPerHour(count, startedAt, finishedAt),
    cycles: { file: CYCLES_FILE, count },
  };
  await writeSummaryFile(options.outDir, summary);
  return summary;
}

/** The records, then `last` run once they are all through (before the file they go to is
 * renamed). */
async function* endingWith<T>(items: AsyncIterable<T>, last: () => void): AsyncGenerator<T> {
  yield* items;
  last();
}

async function* tallied(records: AsyncIterable<CycleRecord>, tallies: ScenarioTallies): AsyncGenerator<CycleRecord> {
  for await (const record of records) {
    tallies.add(record);
    yield record;
  }
}

function checkSameCampaign(a: OpenedResults, b: OpenedResults): void {
  const differ = (what: string) =>
    badInput(`${b.path}: ${what} differs from ${a.path}; merge only the shards of one campaign run (same file, same --seed)`);
  if (a.summary.campaign !== b.summary.campaign) throw differ(`campaign '${b.summary.campaign}'`);
  if (a.summary.seed !== b.summary.seed) throw differ(`seed ${b.summary.seed}`);
  const settings = (r: ResultsSummary) => JSON.stringify(r.scenarios.map((s) => s.settings));
  if (settings(a.summary) !== settings(b.summary)) throw differ('the scenario list');
}

function checkShards(inputs: OpenedResults[]): void {
  const unsharded = inputs.find((i) => i.summary.shard === null);
  if (unsharded && inputs.length > 1) {
    throw badInput(`${unsharded.path} is an unsharded run, which overlaps any other results; merge only the shards (--shard I/N) of one run`);
  }
  if (unsharded) return;
  const counts = [...new Set(inputs.map((i) => i.summary.shard!.count))];
  if (counts.length > 1) throw badInput(`the shards were cut ${counts.join(' and ')} ways; merge the shards of one --shard I/N split`);
  const count = counts[0]!;
  const byIndex = new Map<number, string>();
  for (const input of inputs) {
    const { index } = input.summary.shard!;
    const other = byIndex.get(index);
    if (other) throw badInput(`${input.path} and ${other} are both shard ${index}/${count}; give each shard once`);
    byIndex.set(index, input.path);
  }
  for (let index = 1; index <= count; index++) {
    if (!byIndex.has(index)) throw badInput(`shard ${index}/${count} is missing; give its folder too (some of the shards would not equal one run)`);
  }
}

/** Perf pairs in the unsharded order, each once, as cycles are. They are few: held in memory. */
function orderPairs(order: CampaignOrder, pairs: PerfPairRecord[]): PerfPairRecord[] {
  const ids = new Set<string>();
  const keyed = pairs.map((p) => {
    if (ids.has(p.id)) throw badInput(`perf pair ${p.id} appears in more than one shard; the shards overlap, so merge each shard once`);
    ids.add(p.id);
    const key = order.key(p);
    if (!key) throw badInput(`perf pair ${p.id} belongs to no scenario of the campaign; the results file is damaged`);
    return { p, key };
  });
  return keyed.sort((a, b) => compareKeys(a.key, b.key)).map(({ p }) => p);
}

/** The records until `signal` is aborted; then its reason, thrown where the file is written (which
 * removes its temporary file). */
async function* untilAborted<T>(records: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  for await (const record of records) {
    checkAborted(signal);
    yield record;
  }
}
