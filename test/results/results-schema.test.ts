// The published schemas of the results format (docs/schema/): what the types give today, passed by
// what the rig's own writers write, and failing a broken record by the field it breaks.
import t, { type Test } from 'tap';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCampaign, writeCampaign } from '../../bench/synthetic-campaign.js';
import { assembleResults } from '../../rig/campaign/assemble-results.js';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { runMerge } from '../../rig/cli/commands/merge.js';
import { emptyCycleRecord, markRigError } from '../../rig/cycle/cycle-record.js';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import { CYCLES_FILE, SUMMARY_FILE, writeResultsFiles } from '../../rig/results/results-file.js';
import type { Campaign } from '../../rig/campaign/types.js';
import type { CycleRecord } from '../../rig/results/types.js';
import { writeResultsFolder } from '../../rig/results/write-results.js';
import { fakeRun } from '../fixtures/campaign-results.js';
import { checkResultsFolder, problemsOf, resultsValidators, SCHEMA_DIR, SCHEMA_FILES } from '../fixtures/results-schema.js';

// a plain .mjs script (make schema), found from the top level: the tests run compiled, from dist/test/
const { resultsSchemas } = (await import(pathToFileURL(join(PACKAGE_ROOT, 'scripts', 'results-schema.mjs')).href)) as {
  resultsSchemas(): { file: string; text: string }[];
};

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-schema-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('the committed schemas are what the types give now', async (t) => {
  const generated = resultsSchemas(); // seconds: the generator reads the whole program, so once
  t.same(generated.map((g) => g.file).sort(), Object.values(SCHEMA_FILES).sort(), 'results.json and a cycle record, of the version the rig writes');
  for (const { file, text } of generated) {
    const committed = existsSync(join(SCHEMA_DIR, file)) ? readFileSync(join(SCHEMA_DIR, file), 'utf8') : null;
    t.equal(committed, text, `docs/schema/${file} is what rig/results/types.ts gives (when not: run make schema, and commit it)`);
  }
  const summary = JSON.parse(generated.find((g) => g.file === SCHEMA_FILES.summary)!.text);
  t.match(summary, { $id: /results-v\d+$/, title: /^powercut-rig results\.json v\d+$/, description: /results\.json as written/ }, 'named, and described from the type\'s doc comment');
});

/**
 * `campaign` saved as the runner saves it, mid-run or at its end (assembleResults, then
 * writeResultsFiles): the cycles' records are the fixture's, the first one a rig error on the
 * record the runner starts every cycle with, and the first pair (mode: perf) failed.
 */
async function savedAsTheRunnerSaves(dir: string, campaign: Campaign, finished: boolean): Promise<void> {
  const run = fakeRun(campaign, null, true);
  const [first, ...rest] = run.cycles;
  const records: CycleRecord[] = [...rest];
  if (first) {
    const failed = emptyCycleRecord(first.id, first.settings, first.cycle, first.seed, first.expectation);
    markRigError(failed, new Error('the disk did not start'));
    records.unshift(failed);
  }
  const perf = run.perf?.map((p, i) => (i === 0 ? { ...p, on: null, off: null, error: 'sysbench failed' } : p));
  const facts = { campaign: run.campaign, file: run.file, commandLine: run.commandLine, startedAt: run.startedAt, shard: null, seed: run.seed, environment: run.environment, evidence: campaign.evidence };
  const plans = run.scenarios.map((s) => ({ settings: s.settings, cyclesPlanned: s.cyclesPlanned, ...(s.pairsPlanned !== undefined ? { pairsPlanned: s.pairsPlanned } : {}) }));
  const held = finished ? records : records.slice(0, Math.ceil(records.length / 2));
  const results = assembleResults(facts, plans, held, finished ? run.finishedAt : null, { cycles: held.length, since: run.startedAt }, perf);
  await mkdir(dir, { recursive: true });
  await writeResultsFiles(dir, results);
}

t.test('results the rig writes pass the schemas', async (t) => {
  const dir = await tempDir(t);
  const folders: [string, string][] = [];

  // records built like real runs' (recorded server logs classified and cut by the rig's own code)
  for (const preset of ['headline', 'torn-pages'] as const) {
    const out = join(dir, `generated-${preset}`);
    await writeCampaign(out, await generateCampaign({ cycles: 24, preset, silentCorruption: true, blindControl: preset === 'headline' }));
    folders.push([`a generated ${preset} campaign`, out]);
  }
  // every shipped campaign's settings (perf, mixes, findings, engines, runtimes), mid-run and finished
  const files = readdirSync(join(PACKAGE_ROOT, 'campaigns')).filter((f) => f.endsWith('.yml')).sort();
  for (const file of files) {
    const campaign = await loadCampaign(join(PACKAGE_ROOT, 'campaigns', file));
    for (const finished of [false, true]) {
      const out = join(dir, `${file}-${finished ? 'finished' : 'running'}`);
      await savedAsTheRunnerSaves(out, campaign, finished);
      folders.push([`campaigns/${file}, ${finished ? 'finished' : 'mid-run'}`, out]);
    }
  }
  // shards (the campaign's folder writer) and rig merge's streamed summary of them
  const torn = await loadCampaign(join(PACKAGE_ROOT, 'campaigns', 'torn-pages.yml'));
  const shards: string[] = [];
  for (const index of [1, 2]) {
    const out = join(dir, `shard-${index}`);
    await writeResultsFolder(out, fakeRun(torn, { index, count: 2 }, true));
    shards.push(out);
    folders.push([`campaigns/torn-pages.yml, shard ${index}/2`, out]);
  }
  await runMerge(join(dir, 'merged'), shards, { print: () => {} });
  folders.push(['rig merge of the two shards', join(dir, 'merged')]);

  const published = resultsValidators();
  const closed = resultsValidators({ closed: true });
  for (const [what, folder] of folders) {
    const summary = JSON.parse(await readFile(join(folder, SUMMARY_FILE), 'utf8')) as { cycles: { count: number } };
    const open = await checkResultsFolder(folder, published);
    t.same(open.problems, [], `${what}: results.json and every line of ${CYCLES_FILE} pass`);
    t.equal(open.records, summary.cycles.count, `${what}: ${open.records} records read`);
    t.same((await checkResultsFolder(folder, closed)).problems, [], `${what}: no field the types do not declare`);
  }
  t.ok(folders.length >= 10, `${folders.length} results folders checked`);
});

t.test('a broken record or summary fails, by the field it breaks', async (t) => {
  const dir = await tempDir(t);
  const run = await generateCampaign({ cycles: 3, preset: 'headline' });
  await writeCampaign(dir, run);
  const record = JSON.parse((await readFile(join(dir, CYCLES_FILE), 'utf8')).split('\n')[0]!) as Record<string, unknown>;
  const summary = JSON.parse(await readFile(join(dir, SUMMARY_FILE), 'utf8')) as Record<string, unknown>;
  const { summary: checkSummary, cycle: checkCycle } = resultsValidators();
  const closedCycle = resultsValidators({ closed: true }).cycle;
  t.ok(checkCycle(record), 'the record as written passes');

  const cases: [string, (r: Record<string, unknown>) => void, RegExp][] = [
    ['a verdict that is none of the verdicts', (r) => { r.verdict = 'mostly-fine'; }, /^\/verdict must be equal to one of the allowed values$/],
    ['a required field missing', (r) => { delete r.reason; }, /^\(top level\) must have required property 'reason'$/],
    ['a field of the wrong type, deep down', (r) => { (r.tornPagesBefore as { doublewrite: { restorable: unknown } }[])[0]!.doublewrite.restorable = 'yes'; }, /^\/tornPagesBefore\/0\/doublewrite\/restorable must be boolean$/],
    ['a filesystem the disk does not make', (r) => { (r.settings as { disk: { fs: string } }).disk.fs = 'btrfs'; }, /^\/settings\/disk\/fs must be equal to one of the allowed values$/],
  ];
  for (const [what, breakIt, problem] of cases) {
    const broken = structuredClone(record);
    breakIt(broken);
    t.notOk(checkCycle(broken), `${what}: rejected`);
    t.ok(problemsOf(checkCycle).some((p) => problem.test(p)), `${what}: ajv names the field (${problemsOf(checkCycle).join('; ')})`);
  }

  const unknown = { ...record, verdictNote: 'a field a later version might add' };
  t.ok(checkCycle(unknown), 'a field the schema does not know passes the published schema (a reader keeps what it does not know)');
  t.notOk(closedCycle(unknown), 'and fails the closed one the tests use');
  t.same(problemsOf(closedCycle), ['(top level) must NOT have additional properties: verdictNote']);

  t.ok(checkSummary(summary), 'the summary as written passes');
  t.notOk(checkSummary({ ...summary, version: 3 }), 'another version: rejected');
  t.ok(problemsOf(checkSummary).includes('/version must be equal to constant'), problemsOf(checkSummary).join('; '));
  t.notOk(checkSummary({ ...summary, cycles: { file: CYCLES_FILE } }), 'cycles without its count: rejected');
  t.ok(problemsOf(checkSummary).includes("/cycles must have required property 'count'"), problemsOf(checkSummary).join('; '));
  t.notOk(checkSummary({ ...summary, outcome: 'passed' }), 'an outcome that is none of the outcomes: rejected');
  t.ok(problemsOf(checkSummary).some((p) => p.startsWith('/outcome ')), problemsOf(checkSummary).join('; '));
});
