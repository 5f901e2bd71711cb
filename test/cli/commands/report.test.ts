import { readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { generateCampaign, writeCampaign } from '../../../bench/synthetic-campaign.js';
import { ensureBuilt, rig, showedWhileRunning } from '../../fixtures/rig-cli.js';
import { copyQuickCampaign } from '../../fixtures/report/load-fixture.js';

t.before(ensureBuilt);
const runReport = async (args: string[]) => {
  const run = await rig(['report', ...args]);
  return { out: String(run.stdout), err: String(run.stderr), code: run.exitCode };
};

t.test('rig report DIR writes DIR/index.html and prints its path', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { out, code } = await runReport([run.dir]);
  t.equal(code, 0);
  t.equal(out, `${join(run.dir, 'index.html')}`);
  t.match(await readFile(join(run.dir, 'index.html'), 'utf8'), /✓ PASS/);
});

t.test('--out FILE writes there', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { out, code } = await runReport([run.dir, '--out', join(run.dir, 'cycles', 'report.html')]);
  t.equal(code, 0);
  t.equal(out, `${join(run.dir, 'cycles', 'report.html')}`);
});

t.test('a bad folder or an --out in a missing folder is one line and exit 2', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const missing = await runReport([join(run.dir, 'missing')]);
  t.equal(missing.code, 2);
  t.match(missing.err, /^rig: .*missing is not a folder: give the folder a campaign wrote \(it holds results\.json\)$/);
  const noResults = await runReport([join(run.dir, 'cycles')]);
  t.equal(noResults.code, 2);
  t.match(noResults.err, /results\.json not found/);
  const badOut = await runReport([run.dir, '--out', join(run.dir, 'no', 'such', 'r.html')]);
  t.equal(badOut.code, 2);
  t.match(badOut.err, /does not exist; give --out a file in an existing folder$/);
  t.equal(badOut.err.split('\n').length, 1, 'one line');
});

t.test('SIGINT while the pages are written: the staging folder removed, nothing half-written', async (t) => {
  const dir = t.testdir({});
  await writeCampaign(dir, await generateCampaign({ cycles: 3000, preset: 'torn-pages' }));
  const before = readdirSync(dir).sort();
  const child = rig(['report', dir]);
  // the pages are written to a staging folder beside the index, renamed into place at the end
  t.ok(await showedWhileRunning(child, dir, '.index-cycles.'), 'the staging folder appeared while the report ran');
  child.kill('SIGINT');
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.trim()})`);
  t.equal(ended.stdout, '', 'no report path printed');
  t.same(readdirSync(dir).sort(), before, 'no staging folder, no index, no pages');
});
