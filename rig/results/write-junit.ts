/**
 * Writes junit.xml (junit.ts) from records that stream past, without holding them: each
 * <testsuite> states its counts and time before its cases, so a first pass over the records counts
 * them and a second writes the cases. The file is the one renderJunit makes of the same results,
 * byte for byte. The records must come in the campaign's order, scenario by scenario.
 */
import { rigFailure } from '../errors.js';
import {
  closingCases, countCase, cycleCase, cycleMs, documentStart, DOCUMENT_END, emptyCounts, SUITE_END, suiteStart, totalCounts,
} from './junit.js';
import type { CycleRecord, ResultsSummary } from './types.js';
import { writeChunksAtomic } from './write-atomic.js';

/** What is written at once: a few cases' worth. */
const CHUNK = 64 * 1024;

type Records = Iterable<CycleRecord> | AsyncIterable<CycleRecord>;

/** Writes junit.xml at `path`; `records` is called once per pass and must give the same records each time. */
export async function writeJunit(path: string, results: Pick<ResultsSummary, 'campaign' | 'scenarios'>, records: () => Records): Promise<void> {
  const { campaign, scenarios } = results;
  const rank = new Map(scenarios.map((s, i) => [s.name, i]));
  const counts = scenarios.map(() => emptyCounts());
  for await (const c of records()) {
    const i = rank.get(c.scenario);
    if (i !== undefined) countCase(counts[i]!, cycleCase(campaign, scenarios[i]!, c), cycleMs(c));
  }
  const closing = scenarios.map((s, i) => closingCases(campaign, s).map((c) => countCase(counts[i]!, c, 0)));

  async function* lines(): AsyncGenerator<string> {
    yield documentStart(campaign, totalCounts(counts));
    let at = -1; // the suite whose cases come now
    function* moveTo(next: number): Generator<string> {
      while (at < next) {
        if (at >= 0) yield* [...closing[at]!.map((c) => c.xml), SUITE_END];
        at += 1;
        if (at < scenarios.length) yield suiteStart(scenarios[at]!, counts[at]!);
      }
    }
    for await (const c of records()) {
      const i = rank.get(c.scenario);
      if (i === undefined) continue;
      if (i < at) throw rigFailure(`junit.xml: cycle ${c.id} comes after the cycles of a later scenario; the records are not in the campaign's order`);
      yield* moveTo(i);
      yield cycleCase(campaign, scenarios[i]!, c).xml;
    }
    yield* moveTo(scenarios.length);
    yield DOCUMENT_END;
  }
  await writeChunksAtomic(path, chunks(lines()));
}

/** Lines, each ended by a newline, gathered into writes of about CHUNK characters. */
async function* chunks(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let chunk = '';
  for await (const line of lines) {
    chunk += `${line}\n`;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
