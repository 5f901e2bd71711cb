/**
 * cycles.jsonl of a running campaign: after each cycle the new record is appended, the file
 * written whole only on a process's first save and when an earlier record changed; whatever the
 * path, the file equals the one written whole. A running run's reader stops at results.json's
 * count, so the part of a record an interrupted append left is never read; a resumed run's first
 * save writes the file whole again.
 */
import t, { type Test } from 'tap';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { loadResults } from '../../rig/results/load-results.js';
import { summaryOf, writeCycleRecords, writeSummaryFile } from '../../rig/results/results-file.js';
import { RunningRecordsFile } from '../../rig/results/running-records.js';
import type { CampaignResults, CycleRecord } from '../../rig/results/types.js';
import { fakeRun } from '../fixtures/campaign-results.js';

async function tempDir(t: Test, name = 'rig-running-records-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), name));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The bytes of cycles.jsonl written whole from `records`. */
async function wholeFile(t: Test, records: CycleRecord[]): Promise<string> {
  const dir = await tempDir(t, 'rig-running-whole-');
  await writeCycleRecords(dir, records);
  return readFile(join(dir, 'cycles.jsonl'), 'utf8');
}

const run = async (): Promise<CampaignResults> => fakeRun(await loadCampaign('campaigns/quick.yml'), null, true);

t.test('each save appends the new record; the file equals the one written whole', async (t) => {
  const dir = await tempDir(t);
  const { cycles } = await run();
  t.ok(cycles.length >= 6, `${cycles.length} records`);
  const file = new RunningRecordsFile(dir);
  for (let n = 0; n <= cycles.length; n++) await file.save(cycles.slice(0, n));
  t.same(file.writes, { appended: cycles.length, rewrites: 1 }, 'written whole once (the first save), then appended');
  t.equal(await readFile(join(dir, 'cycles.jsonl'), 'utf8'), await wholeFile(t, cycles), 'byte for byte the file written whole');
  await file.save(cycles);
  t.same(file.writes, { appended: cycles.length, rewrites: 1 }, 'a save with nothing new writes nothing');
});

t.test('an earlier record changed (its evidence given up for the cap): the file is written whole', async (t) => {
  const dir = await tempDir(t);
  const { cycles } = await run();
  const file = new RunningRecordsFile(dir);
  await file.save(cycles.slice(0, 3));
  const changed = cycles.map((c) => ({ ...c }));
  changed[1]!.evidenceDir = null;
  changed[1]!.evidence = { kept: null, why: 'given up for the cap of 1 GiB', bytes: 0 };
  await file.save(changed.slice(0, 4));
  t.same(file.writes, { appended: 0, rewrites: 2 });
  t.equal(await readFile(join(dir, 'cycles.jsonl'), 'utf8'), await wholeFile(t, changed.slice(0, 4)));
  await file.save(changed.slice(0, 5));
  t.same(file.writes, { appended: 1, rewrites: 2 }, 'and appended to again after');
});

t.test('an append cut off mid-record: a running run reads up to its count, and a resumed run writes the file whole', async (t) => {
  const dir = await tempDir(t);
  const results = await run();
  const running: CampaignResults = { ...results, outcome: 'running', cycles: results.cycles.slice(0, 3) };
  const file = new RunningRecordsFile(dir);
  for (let n = 0; n <= 3; n++) await file.save(running.cycles.slice(0, n));
  await writeSummaryFile(dir, summaryOf(running));
  // the process died while appending the fourth: part of its line is on disk, past the summary's count
  await appendFile(join(dir, 'cycles.jsonl'), JSON.stringify(results.cycles[3]).slice(0, 500));
  const loaded = (await loadResults(dir)).results;
  t.same(loaded.cycles, running.cycles, 'the three counted records, the cut-off line not read');

  const resumed = new RunningRecordsFile(dir);
  await resumed.save(results.cycles.slice(0, 4));
  t.same(resumed.writes, { appended: 0, rewrites: 1 }, "a new process's first save writes the file whole");
  t.equal(await readFile(join(dir, 'cycles.jsonl'), 'utf8'), await wholeFile(t, results.cycles.slice(0, 4)), 'the cut-off line gone');

  // a finished run's file is held to its count: a cut-off line there is damage, named
  await appendFile(join(dir, 'cycles.jsonl'), '{"id":"half');
  await writeSummaryFile(dir, summaryOf({ ...results, cycles: results.cycles.slice(0, 4) }));
  await t.rejects(loadResults(dir), /line 5 is not a cycle record/);
});

t.test('bytes written for a run of n cycles: n records, not n^2/2', async (t) => {
  const dir = await tempDir(t);
  const { cycles } = await run();
  const many = Array.from({ length: 200 }, (_, i) => ({ ...cycles[i % cycles.length]!, id: `c-${i}` }));
  const file = new RunningRecordsFile(dir);
  for (let n = 1; n <= many.length; n++) await file.save(many.slice(0, n));
  const size = (await readFile(join(dir, 'cycles.jsonl'))).length;
  const before = many.reduce((sum, _, n) => sum + many.slice(0, n + 1).reduce((s, r) => s + JSON.stringify(r).length + 1, 0), 0);
  t.same(file.writes, { appended: 199, rewrites: 1 });
  t.equal(size, many.reduce((s, r) => s + JSON.stringify(r).length + 1, 0), 'the file holds each record once');
  t.comment(`200 saves: ${(size / 1e6).toFixed(1)} MB written, where writing the file whole each time wrote ${(before / 1e6).toFixed(1)} MB`);
});
