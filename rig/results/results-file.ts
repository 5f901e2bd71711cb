/**
 * A campaign's results on disk: results.json holds the summary (campaign, scenarios, outcome,
 * counts) and names cycles.jsonl beside it, which holds the cycle records, one JSON record per
 * line in the campaign's order. A reader of the summary never reads a record; a reader of the
 * records streams them, one line at a time, so a run of any size is read in bounded memory.
 * results.json of version 1 (every record inside it) still reads, through the same interface.
 */
import { join } from 'node:path';
import { badInput } from '../errors.js';
import { readLines } from './read-lines.js';
import { RESULTS_VERSION, type CampaignResults, type CycleRecord, type ResultsSummary } from './types.js';
import { writeChunksAtomic, writeFileAtomic } from './write-atomic.js';

export const SUMMARY_FILE = 'results.json';
export const CYCLES_FILE = 'cycles.jsonl';

/** Lines per write: records are 10-70 KB each, so a batch is a few MB at most. */
const BATCH = 32;

/** The summary of `results`, as results.json holds it. */
export function summaryOf(results: CampaignResults, count = results.cycles.length): ResultsSummary {
  const { cycles: _records, ...rest } = results;
  return { ...rest, version: RESULTS_VERSION, cycles: { file: CYCLES_FILE, count } };
}

/** Writes DIR/cycles.jsonl from `records` (any iterable, read once); returns how many it wrote. */
export async function writeCycleRecords(dir: string, records: Iterable<CycleRecord> | AsyncIterable<CycleRecord>): Promise<number> {
  let count = 0;
  async function* lines(): AsyncGenerator<string> {
    let batch: string[] = [];
    for await (const record of records) {
      batch.push(`${JSON.stringify(record)}\n`);
      count += 1;
      if (batch.length === BATCH) {
        yield batch.join('');
        batch = [];
      }
    }
    if (batch.length) yield batch.join('');
  }
  await writeChunksAtomic(join(dir, CYCLES_FILE), lines());
  return count;
}

/** Writes DIR/results.json (the summary) and DIR/cycles.jsonl; the records first, so a summary
 * never names more records than its file holds. */
export async function writeResultsFiles(dir: string, results: CampaignResults): Promise<void> {
  await writeCycleRecords(dir, results.cycles);
  await writeSummaryFile(dir, summaryOf(results));
}

/** Writes DIR/results.json; its records must be in DIR/cycles.jsonl already. */
export async function writeSummaryFile(dir: string, summary: ResultsSummary): Promise<void> {
  await writeFileAtomic(join(dir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
}

/** The records of cycles.jsonl at `path`, one at a time, read as they are asked for. A line
 * that is not a record is bad input, named by its number. */
export async function* streamCycleRecords(path: string): AsyncGenerator<CycleRecord> {
  let n = 0;
  try {
    for await (const line of readLines(path)) {
      n += 1;
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        throw badInput(`${path}: line ${n} is not a cycle record (${(error as Error).message}); the file is damaged: rerun the campaign with --resume to rewrite it`, error);
      }
      yield record as CycleRecord;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw badInput(`${path} not found: results.json names it, so the results folder is incomplete; copy the whole folder`, error);
    }
    throw error;
  }
}
