/**
 * Bad input found before anything runs, as the rig says any: exit 2, one line naming the problem
 * and the fix, and nothing made. Each of these once failed minutes in, as an internal error with
 * a stack, or (cleanup --dir) swept more than the folder it named.
 */
import t, { type Test } from 'tap';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { copyQuickCampaign, QUICK_CAMPAIGN_DIR } from '../fixtures/report/load-fixture.js';

t.before(ensureBuilt);

/** Runs `rig args` in a folder it must leave as it was, and asserts the one line it says. */
async function refused(t: Test, dir: string, args: string[], line: RegExp): Promise<void> {
  const before = readdirSync(dir, { recursive: true }).sort();
  const run = await rig(args);
  t.equal(run.exitCode, 2, `exit 2: ${run.stderr}`);
  t.equal(String(run.stderr).trimEnd().split('\n').length, 1, 'one line');
  t.match(run.stderr, line);
  t.same(readdirSync(dir, { recursive: true }).sort(), before, 'nothing made');
}

t.test('a file or a missing folder where a command wants a folder', async (t) => {
  const dir = t.testdir({ 'a-file': 'not a folder', 'cycle-json': { 'cycle.json': '{' }, 'cycle-empty': { 'cycle.json': '{}' } });
  const file = join(dir, 'a-file');
  await refused(t, dir, ['disk', 'up', '--dir', file], /^rig: --dir .*a-file is a file; give a folder for the disk$/);
  await refused(t, dir, ['cleanup', '--dir', join(dir, 'missing')], /^rig: --dir .*missing: no such folder, and no disk the rig recorded was there; check the path/);
  await refused(t, dir, ['cleanup', '--dir', file], /^rig: --dir .*a-file is a file; name the work folder/);
  await refused(t, dir, ['perf', '--out', join(file, 'perf')], /^rig: --out .*a-file\/perf is inside .*a-file, which is a file; give a folder for perf\.json$/);
  await refused(t, dir, ['cycle', '--out', file], /^rig: --out .*a-file is a file; give a folder for cycle\.json and the evidence$/);
  await refused(t, dir, ['cycle', '--out', dir], /^rig: --out .* is not empty and holds no cycle; give a new or empty folder, or an earlier cycle's folder$/);
  await refused(t, dir, ['campaign', 'campaigns/quick.yml', '--resume', '--out', file], /^rig: --out .*a-file is a file; give a folder for the results$/);
  await refused(t, dir, ['repro', '--down', join(dir, 'missing')], /^rig: .*missing: no such folder; name the folder 'rig repro' was run on$/);
  await refused(t, dir, ['merge', file, QUICK_CAMPAIGN_DIR], /^rig: OUT .*a-file is a file; give a folder for the merged results$/);
});

t.test('a cycle.json the rig did not write', async (t) => {
  const dir = t.testdir({ broken: { 'cycle.json': '{' }, empty: { 'cycle.json': '{}' }, list: { 'cycle.json': '[]' } });
  for (const command of [['repro'], ['shrink'], ['bundle', '--out', join(dir, 'b.tar.gz')]]) {
    const [name, ...rest] = command;
    await refused(t, dir, [name!, join(dir, 'broken'), ...rest], /^rig: .*broken\/cycle\.json is not JSON \(.*\); name a folder whose cycle\.json the rig wrote$/);
    await refused(t, dir, [name!, join(dir, 'empty'), ...rest], /^rig: .*empty\/cycle\.json has no id or verdict, so it is no cycle record the rig wrote; name a 'rig cycle --out' folder/);
    await refused(t, dir, [name!, join(dir, 'list'), ...rest], /cycle\.json is not a JSON object, so it is no cycle record/);
  }
});

t.test("rig report's --out naming a folder", async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  mkdirSync(join(run.dir, 'a-folder'));
  await refused(t, run.dir, ['report', run.dir, '--out', join(run.dir, 'a-folder')], /^rig: cannot write .*a-folder: it is a folder; give --out the report's file, e\.g\. .*a-folder\/index\.html$/);
});

t.test('a command group called alone names its commands', async (t) => {
  const dir = t.testdir({});
  await refused(t, dir, ['disk'], /^rig: disk needs a command: up, cut, status, down, selftest; see rig disk --help$/);
  await refused(t, dir, ['images'], /^rig: images needs a command: build, list; see rig images --help$/);
  await refused(t, dir, ['vm'], /^rig: vm needs a command: setup, run; see rig vm --help$/);
  await refused(t, dir, ['disk', 'spin'], /^rig: 'spin' is not a command of rig disk; use up, cut, status, down, selftest \(rig disk --help\)$/);
  const help = await rig(['vm', 'help', 'run']);
  t.equal(help.exitCode, 0, 'the help command stays');
  t.match(help.stdout, /^Usage: rig vm run /);
});
