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

t.test('--out replaces a report the rig wrote, never a file or folder of that name it did not', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const dir = t.testdir({ 'notes.html': 'my notes', 'mine-cycles': { 'cycle-a.html': 'x', 'todo.txt': 'keep' } });
  const notes = await runReport([run.dir, '--out', join(dir, 'notes.html')]);
  t.equal(notes.code, 2);
  t.equal(notes.err, `rig: cannot write ${join(dir, 'notes.html')}: the file is there and is not a report the rig wrote; move it, or give --out another file name`);
  const mine = await runReport([run.dir, '--out', join(dir, 'mine.html')]);
  t.equal(mine.code, 2);
  t.equal(mine.err, `rig: cannot write the cycle pages to ${join(dir, 'mine-cycles')}: it holds todo.txt, which is no cycle page; move it, or give --out another file name`);
  t.same(readdirSync(dir).sort(), ['mine-cycles', 'notes.html'], 'nothing written beside them');
  t.equal(await readFile(join(dir, 'notes.html'), 'utf8'), 'my notes');
  t.same(readdirSync(join(dir, 'mine-cycles')).sort(), ['cycle-a.html', 'todo.txt']);
  // the rig's own report, written again over itself
  const first = await runReport([run.dir, '--out', join(dir, 'r.html')]);
  const again = await runReport([run.dir, '--out', join(dir, 'r.html')]);
  t.same([first.code, again.code], [0, 0], again.err);
  t.ok(readdirSync(join(dir, 'r-cycles')).length > 0, 'its cycle pages');
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
  const inFile = await runReport([run.dir, '--out', join(run.dir, 'results.json', 'r.html')]);
  t.equal(inFile.code, 2);
  t.match(inFile.err, /^rig: cannot write .*results\.json\/r\.html: .*results\.json is a file; give --out a file in an existing folder$/);
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
