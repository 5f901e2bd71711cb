/**
 * Bad input found before anything runs, as the rig says any: exit 2, one line naming the problem
 * and the fix, and nothing made. Each of these once failed minutes in, as an internal error with
 * a stack, or (cleanup --dir) swept more than the folder it named.
 */
import t, { type Test } from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { copyQuickCampaign, QUICK_CAMPAIGN_DIR } from '../fixtures/report/load-fixture.js';
import { cycleRecord } from '../fixtures/cycle-record.js';
import { localScenario } from '../fixtures/local-scenario.js';

t.before(ensureBuilt);

/** Runs `rig args` in a folder it must leave as it was, and asserts the one line it says; `cwd`:
 * where the command runs (the checkout's root unless named). */
async function refused(t: Test, dir: string, args: string[], line: RegExp, cwd?: string): Promise<void> {
  const before = readdirSync(dir, { recursive: true }).sort();
  const run = await rig(args, {}, { cwd });
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
  // nothing to resume: a fresh run's rule, or it would write its run beside someone's files
  await refused(t, dir, ['campaign', 'campaigns/quick.yml', '--resume', '--out', dir], /^rig: --out .* is not empty and holds no campaign results; give a new or empty folder, or an earlier run's folder$/);
  await refused(t, dir, ['explore', '--resume', '--out', dir], /^rig: --out .* is not empty and holds no campaign results; give a new or empty folder, or an earlier run's folder$/);
  // the flag's smallest cap is the file's evidence.maxBytes's
  await refused(t, dir, ['campaign', 'campaigns/quick.yml', '--evidence-max', '1', '--out', join(dir, 'run')], /^rig: --evidence-max: 1 is too small; use 1M or more, e\.g\. 2G$/);
  await refused(t, dir, ['repro', '--down', join(dir, 'missing')], /^rig: .*missing: no such folder; name the folder 'rig repro' was run on$/);
  // once "no repro disk was up", exit 0, for a folder that never held a cycle
  await refused(t, dir, ['repro', '--down', file], /^rig: .*a-file holds no cycle\.json; name a 'rig cycle --out' folder/);
  await refused(t, dir, ['repro', '--down', '--recover', join(dir, 'cycle-empty')], /^rig: --down takes a repro down and starts nothing; run 'rig repro --down' alone, or drop --down$/);
  await refused(t, dir, ['merge', file, QUICK_CAMPAIGN_DIR], /^rig: OUT .*a-file is a file; give a folder for the merged results$/);
});

t.test("a disk's folder: someone's files, a record no disk wrote, a record of another folder", async (t) => {
  const dir = t.testdir({ notes: { 'keep.txt': 'mine' }, blank: { 'disk.json': '{}' }, copied: {}, gone: {} });
  // the disk replaces image.img, journal.bin and its logs in its folder
  await refused(t, dir, ['disk', 'up', '--dir', join(dir, 'notes')], /^rig: --dir .*notes is not empty and holds no power-fail disk; give a new or empty folder, or an earlier disk's folder$/);
  // one smallest size, whatever too small a size was given
  for (const size of ['0', '1']) {
    await refused(t, dir, ['disk', 'up', '--dir', join(dir, 'new'), '--size', size], new RegExp(`^rig: --size: ${size} is too small for ext4; use 32M or more$`));
  }
  await refused(t, dir, ['disk', 'down', '--dir', join(dir, 'blank')], /^rig: --dir: .*blank holds no power-fail disk; start one with 'rig disk up --dir .*blank'$/);
  // a record copied from another disk's folder names that disk's mounts and devices
  const record = { version: 1, dir: join(dir, 'elsewhere'), image: join(dir, 'elsewhere', 'image.img'), helperPid: null, loopDevice: null, mountPoint: null };
  writeFileSync(join(dir, 'copied', 'disk.json'), JSON.stringify(record));
  await refused(t, dir, ['disk', 'down', '--dir', join(dir, 'copied')], /^rig: --dir: .*copied\/disk\.json is the record of the disk in .*elsewhere; name that folder$/);
  writeFileSync(join(dir, 'gone', 'disk.json'), JSON.stringify({ ...record, dir: join(dir, 'gone'), image: join(dir, 'gone', 'image.img') }));
  await refused(t, dir, ['disk', 'status', '--dir', join(dir, 'gone')], /^rig: the disk in .*gone is not up \(its helper is gone\); 'rig disk down --dir .*gone' takes down what is left$/);
});

t.test("an empty path is refused, never taken for the current folder (which '' resolves to)", async (t) => {
  // run in the test's own folder: a command that took '' for it would write there, and be seen
  const dir = t.testdir({ 'a-file': 'not a folder' });
  const quick = resolve('campaigns/quick.yml');
  await refused(t, dir, ['disk', 'up', '--dir', ''], /^rig: --dir is empty; give a folder for the disk$/, dir);
  await refused(t, dir, ['disk', 'status', '--dir', ''], /^rig: --dir is empty; name the folder the disk was brought up in/, dir);
  // '' once swept every disk the rig recorded, as no --dir does
  await refused(t, dir, ['cleanup', '--dir', ''], /^rig: --dir is empty; name the work folder .* or leave --dir out to sweep everything the rig left$/, dir);
  await refused(t, dir, ['cycle', '--out', ''], /^rig: --out is empty; give a folder for cycle\.json and the evidence$/, dir);
  await refused(t, dir, ['campaign', quick, '--out', ''], /^rig: --out is empty; give a folder for the results$/, dir);
  await refused(t, dir, ['merge', '', QUICK_CAMPAIGN_DIR], /^rig: OUT is empty; give a folder for the merged results$/, dir);
});

t.test('a cycle.json the rig did not write', async (t) => {
  // a record of an older rig: settings, verdict and torn pages, but no invariants
  const older = (JSON.parse(readFileSync(join(QUICK_CAMPAIGN_DIR, 'results.json'), 'utf8')) as { cycles: object[] }).cycles[0];
  const dir = t.testdir({
    broken: { 'cycle.json': '{' }, empty: { 'cycle.json': '{}' }, list: { 'cycle.json': '[]' },
    lines: { 'cycle.json': 'nope{\n\n' }, older: { 'cycle.json': JSON.stringify(older) },
  });
  for (const command of [['repro'], ['shrink'], ['bundle', '--out', join(dir, 'b.tar.gz')]]) {
    const [name, ...rest] = command;
    await refused(t, dir, [name!, join(dir, 'broken'), ...rest], /^rig: .*broken\/cycle\.json is not JSON \(.*\); name a folder whose cycle\.json the rig wrote$/);
    await refused(t, dir, [name!, join(dir, 'empty'), ...rest], /^rig: .*empty\/cycle\.json has no id or verdict, so it is no cycle record the rig wrote; name a 'rig cycle --out' folder/);
    await refused(t, dir, [name!, join(dir, 'list'), ...rest], /cycle\.json is not a JSON object, so it is no cycle record/);
  }
  // the three read a cycle.json through one function; the parser quotes the file's text, newline
  // and all (still one line); an older rig's record lacks what shrink reads
  await refused(t, dir, ['repro', join(dir, 'lines')], /^rig: .*lines\/cycle\.json is not JSON \(.*\); name a folder whose cycle\.json the rig wrote$/);
  await refused(t, dir, ['shrink', join(dir, 'older')], /^rig: .*older\/cycle\.json has no invariants, torn pages or error log as this rig records them, so it is no cycle record the rig wrote; name a 'rig cycle --out' folder/);
});

t.test("rig shrink's and rig bundle's --out in a file", async (t) => {
  // a server failure with its evidence's files there: shrink gets as far as its --out
  const record = cycleRecord({ id: 'dw-on-1', scenario: 'dw-on', cycle: 1, seed: 1 }, localScenario('dw-on', { expect: 'recovers' }), 'refused', 2);
  const dir = t.testdir({ failed: { 'cycle.json': JSON.stringify(record), cut: { 'image.img': '', 'journal.bin': '', 'plan.json': '{}' } }, 'a-file': 'not a folder' });
  await refused(t, dir, ['shrink', join(dir, 'failed'), '--out', join(dir, 'a-file')], /^rig: --out .*a-file is a file; give a folder for the shrunk cycle$/);
  await refused(t, dir, ['shrink', join(dir, 'failed'), '--out', join(dir, 'a-file', 'sub')], /^rig: --out .*a-file\/sub is inside .*a-file, which is a file; give a folder for the shrunk cycle$/);
  await refused(t, dir, ['bundle', join(dir, 'failed'), '--out', join(dir, 'a-file', 'b.tar.gz')], /^rig: --out .*a-file\/b\.tar\.gz: .*a-file is a file; name the tarball in a folder that exists$/);
  await refused(t, dir, ['bundle', join(dir, 'failed'), '--out', join(dir, 'none', 'b.tar.gz')], /^rig: --out .*none\/b\.tar\.gz: the folder .*none does not exist; name the tarball in a folder that exists$/);
});

t.test("rig report's --out naming a folder", async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  mkdirSync(join(run.dir, 'a-folder'));
  await refused(t, run.dir, ['report', run.dir, '--out', join(run.dir, 'a-folder')], /^rig: cannot write .*a-folder: it is a folder; give --out the report's file, e\.g\. .*a-folder\/index\.html$/);
});

t.test('a command group called alone names its commands', async (t) => {
  const dir = t.testdir({});
  await refused(t, dir, [], /^rig: give a command: disk, report, images, .*, vm; see rig --help$/);
  await refused(t, dir, ['help', 'spin'], /^rig: unknown command 'spin'; see rig --help$/);
  await refused(t, dir, ['disk'], /^rig: disk needs a command: up, cut, status, down, selftest; see rig disk --help$/);
  await refused(t, dir, ['images'], /^rig: images needs a command: build, list; see rig images --help$/);
  await refused(t, dir, ['vm'], /^rig: vm needs a command: setup, run; see rig vm --help$/);
  await refused(t, dir, ['disk', 'spin'], /^rig: 'spin' is not a command of rig disk; use up, cut, status, down, selftest \(rig disk --help\)$/);
  // a group takes any words to name a mistyped command; its commands take only what they name
  await refused(t, dir, ['disk', 'status', 'extra', '--dir', join(dir, 'none')], /^rig: too many arguments for 'status'.*; see rig disk status --help$/);
  await refused(t, dir, ['images', 'list', 'extra'], /^rig: too many arguments for 'list'.*; see rig images list --help$/);
  // a usage error points to the help of the command it is about
  await refused(t, dir, ['disk', 'up'], /^rig: required option '--dir <dir>' not specified; see rig disk up --help$/);
  const help = await rig(['vm', 'help', 'run']);
  t.equal(help.exitCode, 0, 'the help command stays');
  t.match(help.stdout, /^Usage: rig vm run /);
});
