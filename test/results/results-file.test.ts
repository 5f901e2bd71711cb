/** results.json and cycles.jsonl as written and read back: the summary apart, the records streamed, damage named. */
import t, { type Test } from 'tap';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { loadResults, openResults } from '../../rig/results/load-results.js';
import { writeResultsFiles } from '../../rig/results/results-file.js';
import type { CycleRecord } from '../../rig/results/types.js';
import { fakeRun } from '../fixtures/campaign-results.js';
import { QUICK_CAMPAIGN_DIR } from '../fixtures/report/load-fixture.js';

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-results-file-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('the summary holds no record; the records stream back in order, equal to what was written', async (t) => {
  const dir = await tempDir(t);
  const results = fakeRun(await loadCampaign('campaigns/quick.yml'), null);
  await writeResultsFiles(dir, results);
  const summary = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as Record<string, unknown>;
  t.same(summary.cycles, { file: 'cycles.jsonl', count: results.cycles.length });
  t.equal(summary.version, 2);
  t.same(summary.scenarios, results.scenarios, 'the scenarios\' summaries are in it');
  const lines = (await readFile(join(dir, 'cycles.jsonl'), 'utf8')).trimEnd().split('\n');
  t.equal(lines.length, results.cycles.length, 'one line per record');
  const opened = await openResults(dir);
  const streamed: CycleRecord[] = [];
  for await (const record of opened.records()) streamed.push(record);
  t.same(streamed, results.cycles);
  t.same((await loadResults(dir)).results, results, 'loaded whole, the results are what was written');
});

t.test('a results.json of version 1 (every record inside it) reads as version 2', async (t) => {
  const { results } = await loadResults(QUICK_CAMPAIGN_DIR);
  const raw = JSON.parse(await readFile(join(QUICK_CAMPAIGN_DIR, 'results.json'), 'utf8')) as { version: number; cycles: unknown[] };
  t.equal(raw.version, 1);
  t.equal(results.version, 2);
  t.same(results.cycles, raw.cycles);
  t.same((await openResults(QUICK_CAMPAIGN_DIR)).summary.cycles, { file: 'results.json', count: raw.cycles.length });
});

t.test('damage is bad input naming the file and what is wrong', async (t) => {
  const dir = await tempDir(t);
  const results = fakeRun(await loadCampaign('campaigns/quick.yml'), null);
  const read = async () => loadResults(dir);
  await writeResultsFiles(dir, results);
  await appendFile(join(dir, 'cycles.jsonl'), '{"id": "cut off');
  await t.rejects(read(), { code: 'bad-input', message: new RegExp(`cycles\\.jsonl: line ${results.cycles.length + 1} is not a cycle record`) });
  await writeResultsFiles(dir, { ...results, cycles: results.cycles.slice(1) });
  const summary = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as { cycles: { count: number } };
  await writeFile(join(dir, 'results.json'), JSON.stringify({ ...summary, cycles: { file: 'cycles.jsonl', count: results.cycles.length } }));
  await t.rejects(read(), { code: 'bad-input', message: /holds \d+ cycle records where results\.json counts \d+/ });
  await writeFile(join(dir, 'results.json'), JSON.stringify({ ...summary, cycles: { file: '../elsewhere.jsonl', count: 1 } }));
  await t.rejects(read(), { code: 'bad-input', message: /is outside the results folder/ });
  await writeFile(join(dir, 'results.json'), JSON.stringify({ ...summary, cycles: { file: 'gone.jsonl', count: 1 } }));
  await t.rejects(read(), { code: 'bad-input', message: /gone\.jsonl not found: results\.json names it/ });
  await writeResultsFiles(dir, results);
  await writeFile(join(dir, 'cycles.jsonl'), '{"id": 5}\n');
  await t.rejects(read(), { code: 'bad-input', message: /record 1 is not a cycle record \(id: / });
});
