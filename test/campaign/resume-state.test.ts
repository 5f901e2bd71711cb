/** --resume's checks and a fresh run's --out checks, on real folders. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { checkFreshOutFolder, clearEarlierRun } from '../../rig/campaign/out-folder.js';
import { planCycles } from '../../rig/campaign/plan-cycles.js';
import { readResumeState } from '../../rig/campaign/resume-state.js';
import { selectShard } from '../../rig/campaign/shard.js';
import { writeResultsFiles } from '../../rig/results/results-file.js';
import { fakeRun } from '../fixtures/campaign-results.js';

const text = 'name: c\nseed: 5\nscenarios:\n  - {name: a, cycles: 3}\n  - {name: b, cycles: 2}\n';
const campaign = parseCampaign(text, 'c.yml');

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'rig-resume-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('resume keeps the cycles recorded with the id and seed the plan gives them', async (t) => {
  const dir = tempDir(t);
  const earlier = fakeRun(campaign, null);
  earlier.cycles = earlier.cycles.slice(0, 3); // interrupted after a-3
  earlier.cycles[1] = { ...earlier.cycles[1]!, seed: 999 }; // recorded under another seed: not this plan's cycle
  await writeResultsFiles(dir, earlier);
  const state = await readResumeState(dir, campaign, null, planCycles(campaign));
  t.same(state?.finished.map((c) => c.id), ['a-1', 'a-3']);
  t.equal(state?.startedAt, earlier.startedAt);
  t.equal(await readResumeState(tempDir(t), campaign, null, planCycles(campaign)), null, 'nothing to resume');
});

t.test('resume refuses another campaign, seed, shard or scenario list', async (t) => {
  const dir = tempDir(t);
  await writeResultsFiles(dir, fakeRun(campaign, { index: 1, count: 2 }));
  const cases: [string, string, { index: number; count: number } | null, RegExp][] = [
    ['another shard', text, null, /run as shard 1\/2, not no shard/],
    ['another seed', text.replace('seed: 5', 'seed: 6'), { index: 1, count: 2 }, /seed 5, not 6/],
    ['another name', text.replace('name: c', 'name: d'), { index: 1, count: 2 }, /campaign 'c', not 'd'/],
    ['other settings', text.replace('{name: b, cycles: 2}', '{name: b, cycles: 2, server: {doublewrite: off}}'), { index: 1, count: 2 }, /scenarios differ/],
  ];
  for (const [name, yaml, shard, message] of cases) {
    const other = parseCampaign(yaml, 'c.yml');
    await t.rejects(readResumeState(dir, other, shard, selectShard(planCycles(other), shard)), { code: 'bad-input', message }, name);
  }
});

t.test('a fresh run takes a new, empty or earlier campaign folder, and refuses any other', async (t) => {
  const dir = tempDir(t);
  t.doesNotThrow(() => checkFreshOutFolder(join(dir, 'new')));
  t.doesNotThrow(() => checkFreshOutFolder(dir), 'empty');
  mkdirSync(join(dir, 'cycles', 'a-1'), { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  t.throws(() => checkFreshOutFolder(dir), { code: 'bad-input', message: /not empty and holds no campaign results/ });
  clearEarlierRun(dir);
  t.ok(existsSync(join(dir, 'cycles', 'a-1')), 'a folder without results.json is left alone');
  writeFileSync(join(dir, 'results.json'), '{}');
  writeFileSync(join(dir, 'cycles.jsonl'), '{}\n');
  mkdirSync(join(dir, 'index-cycles'));
  t.doesNotThrow(() => checkFreshOutFolder(dir), 'an earlier campaign folder');
  clearEarlierRun(dir);
  t.same(['cycles', 'results.json', 'cycles.jsonl', 'index-cycles'].filter((f) => existsSync(join(dir, f))), [], 'its cycles, results and report pages are replaced');
  t.ok(existsSync(join(dir, 'notes.txt')), 'other files stay');
  writeFileSync(join(dir, 'file'), 'x');
  t.throws(() => checkFreshOutFolder(join(dir, 'file')), { code: 'bad-input', message: /is a file/ });
});
