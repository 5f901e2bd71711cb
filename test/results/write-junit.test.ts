import t, { type Test } from 'tap';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCampaign } from '../../bench/synthetic-campaign.js';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { renderJunit } from '../../rig/results/junit.js';
import { CYCLES_FILE, streamCycleRecords, writeResultsFiles } from '../../rig/results/results-file.js';
import { campaignOutcome, summarizeScenarios } from '../../rig/results/summarize.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { writeJunit } from '../../rig/results/write-junit.js';
import { fakeRun } from '../fixtures/campaign-results.js';

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-junit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** `results` with only the records `keep` keeps, summarized afresh (a run cut short, a scenario with none). */
function keeping(results: CampaignResults, keep: (c: CampaignResults['cycles'][number]) => boolean): CampaignResults {
  const cycles = results.cycles.filter(keep);
  const plans = results.scenarios.map((s) => ({ settings: s.settings, cyclesPlanned: s.cyclesPlanned, ...(s.pairsPlanned !== undefined ? { pairsPlanned: s.pairsPlanned } : {}) }));
  const scenarios = summarizeScenarios(plans, cycles);
  return { ...results, cycles, scenarios, outcome: campaignOutcome(scenarios, true) };
}

t.test('written from streamed records, junit.xml is renderJunit of the same results, byte for byte', async (t) => {
  const dir = await tempDir(t);
  const tornPages = fakeRun(await loadCampaign('campaigns/torn-pages.yml'), null);
  const second = tornPages.scenarios[1]!.name;
  const cases: [string, CampaignResults][] = [
    ['torn-pages, unsharded', tornPages],
    ['a shard of it', fakeRun(await loadCampaign('campaigns/torn-pages.yml'), { index: 2, count: 3 })],
    ['known findings', fakeRun(await loadCampaign('campaigns/findings.yml'), null)],
    ['quick', fakeRun(await loadCampaign('campaigns/quick.yml'), null)],
    ['perf scenarios: pairs, no cycles', fakeRun(await loadCampaign('campaigns/perf.yml'), null)],
    ['a scenario with no records between two with some', keeping(tornPages, (c) => c.scenario !== second)],
    ['a run cut short', keeping(tornPages, (c) => c.cycle === 1)],
    ['no records at all', keeping(tornPages, () => false)],
    ['generated, a blind control', (await generateCampaign({ cycles: 40, preset: 'torn-pages', blindControl: true })).results],
    ['generated, vacuous doublewrite', (await generateCampaign({ cycles: 40, preset: 'torn-pages', noDoublewriteCopies: true, silentCorruption: true })).results],
  ];
  for (const [what, results] of cases) {
    const folder = join(dir, String(cases.findIndex(([w]) => w === what)));
    await mkdir(folder);
    await writeResultsFiles(folder, results);
    await writeJunit(join(folder, 'junit.xml'), results, () => streamCycleRecords(join(folder, CYCLES_FILE)));
    t.equal(await readFile(join(folder, 'junit.xml'), 'utf8'), renderJunit(results), what);
  }
});

t.test('records in memory serve as well, read once per pass', async (t) => {
  const dir = await tempDir(t);
  const results = fakeRun(await loadCampaign('campaigns/quick.yml'), null);
  let passes = 0;
  await writeJunit(join(dir, 'junit.xml'), results, () => (passes++, results.cycles));
  t.equal(passes, 2);
  t.equal(await readFile(join(dir, 'junit.xml'), 'utf8'), renderJunit(results));
});

t.test('records out of the campaign order are refused, and no file is left', async (t) => {
  const dir = await tempDir(t);
  const results = fakeRun(await loadCampaign('campaigns/torn-pages.yml'), null);
  const reversed = [...results.cycles].reverse();
  await t.rejects(writeJunit(join(dir, 'junit.xml'), results, () => reversed), { code: 'rig-failure', message: /not in the campaign's order/ });
  await t.rejects(readFile(join(dir, 'junit.xml')), { code: 'ENOENT' });
});
