/**
 * Reads a campaign's results (from its folder, or its results.json) and checks the parts a merge
 * and a report rely on. Anything else in the files is kept as it is. `openResults` reads the
 * summary and streams the records, for runs of any size; `loadResults` holds every record in
 * memory, for the commands that need them all at once. Both read results.json of version 1 (every
 * record inside it) and of version 2 (the records in cycles.jsonl, results-file.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { badInput } from '../errors.js';
import { streamCycleRecords } from './results-file.js';
import { RESULTS_VERSION, type CampaignResults, type CycleRecord, type ResultsSummary } from './types.js';

const scenarios = z.array(z.looseObject({ name: z.string(), settings: z.looseObject({ expect: z.string() }), cyclesPlanned: z.number().int() }));
const common = {
  campaign: z.string(),
  file: z.string(),
  seed: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  shard: z.object({ index: z.number().int(), count: z.number().int() }).nullable(),
  scenarios,
};
const cycle = z.looseObject({ id: z.string(), scenario: z.string(), cycle: z.number().int(), seed: z.number(), verdict: z.string(), tornPagesBefore: z.array(z.unknown()), evidenceDir: z.string().nullable() });
const shape = z.discriminatedUnion('version', [
  z.looseObject({ version: z.literal(1), ...common, cycles: z.array(z.unknown()) }),
  z.looseObject({ version: z.literal(2), ...common, cycles: z.object({ file: z.string(), count: z.number().int().nonnegative() }) }),
]);

/** The campaign's results with the records left on disk. */
export interface OpenedResults {
  dir: string; // the folder the results.json is in
  path: string;
  summary: ResultsSummary;
  /** The file the records are read from: cycles.jsonl, or results.json of version 1. */
  recordsFile: string;
  /** The records in the campaign's order, read afresh at each call. */
  records(): AsyncGenerator<CycleRecord>;
}

export interface LoadedResults {
  dir: string;
  path: string;
  results: CampaignResults;
}

export async function openResults(dirOrFile: string): Promise<OpenedResults> {
  const isDir = (await stat(dirOrFile).catch(() => null))?.isDirectory() ?? false;
  const path = isDir ? join(dirOrFile, 'results.json') : dirOrFile;
  const dir = isDir ? dirOrFile : join(dirOrFile, '..');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw badInput(`${path}: cannot read campaign results (${why}); give a folder a campaign wrote, holding results.json`, error);
  }
  const checked = shape.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw badInput(`${path}: not a campaign's results (${issue.path.join('.') || 'top level'}: ${issue.message}); give a folder a campaign wrote`);
  }
  if (checked.data.version === 1) {
    // version 1: the records are inside results.json
    const inline = (data as { cycles: unknown[] }).cycles;
    const summary = { ...(data as object), version: RESULTS_VERSION, cycles: { file: 'results.json', count: inline.length } } as ResultsSummary;
    return { dir, path, summary, recordsFile: path, records: () => checkedRecords(path, arrayRecords(inline)) };
  }
  const summary = data as ResultsSummary;
  const file = inside(dir, summary.cycles.file);
  if (!file) throw badInput(`${path}: cycles.file ${JSON.stringify(summary.cycles.file)} is outside the results folder; give a folder a campaign wrote`);
  return { dir, path, summary, recordsFile: file, records: () => checkedRecords(file, streamCycleRecords(file), summary) };
}

export async function loadResults(dirOrFile: string): Promise<LoadedResults> {
  const opened = await openResults(dirOrFile);
  const cycles: CycleRecord[] = [];
  for await (const record of opened.records()) cycles.push(record);
  const { cycles: _file, ...rest } = opened.summary;
  return { dir: opened.dir, path: opened.path, results: { ...rest, cycles } };
}

async function* arrayRecords(records: unknown[]): AsyncGenerator<CycleRecord> {
  for (const r of records) yield r as CycleRecord;
}

/** Each record checked as it passes; at the end, their number against the summary's (a finished
 * run's file must hold exactly its records). A running run's file is read up to the summary's
 * count: past it may be a record appended after the summary was last written, or the part of
 * one an interrupted append left (rig/results/running-records.ts). */
async function* checkedRecords(path: string, records: AsyncGenerator<CycleRecord>, summary?: ResultsSummary): AsyncGenerator<CycleRecord> {
  let n = 0;
  const limit = summary?.outcome === 'running' ? summary.cycles.count : Infinity;
  if (limit > 0) {
    for await (const record of records) {
      n += 1;
      const checked = cycle.safeParse(record);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw badInput(`${path}: record ${n} is not a cycle record (${issue.path.join('.') || 'top level'}: ${issue.message}); give a folder a campaign wrote`);
      }
      yield record;
      if (n >= limit) break; // the next line is not read at all
    }
  }
  if (summary && summary.outcome !== 'running' && n !== summary.cycles.count) {
    throw badInput(`${path} holds ${n} cycle records where results.json counts ${summary.cycles.count}; the folder is incomplete or damaged: copy it whole`);
  }
}

/** A path named in results.json, kept inside the results folder. */
function inside(folder: string, path: string): string | null {
  const full = resolve(folder, path);
  const rel = relative(resolve(folder), full);
  return rel.startsWith('..') || isAbsolute(rel) ? null : full;
}
