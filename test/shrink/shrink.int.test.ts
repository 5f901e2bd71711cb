/**
 * `rig shrink` on a crash state whose smallest failure is known, built on purpose from one
 * recorded load (test/fixtures/page0-state.ts): page 0 of a table's .ibd torn while its copy
 * was durable (the page-0 finding, docs/findings/page0-not-restored.md), plus home writes of index
 * pages dropped whose copies were durable too (the server restores each of those from its copy).
 * The shrink must keep the finding and come down to the page-0 write alone, 1-minimal; the shrunk
 * folder rebuilds byte for byte with `rig repro`. Then the same shrink interrupted by SIGINT: the
 * smallest failing plan found by then is kept as a folder repro rebuilds, and nothing is left
 * mounted, attached or running. Bad input is one line, exit 2, nothing made.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrashPlan } from '../../faults/crash-plan.js';
import type { CycleRecord, ScenarioSettings } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { localScenario } from '../fixtures/local-scenario.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { tornPage0Cycle, type Page0Cycle } from '../fixtures/page0-state.js';
import { execa } from 'execa';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';

const work = mkdtempSync(join(tmpdir(), 'rig-shrink-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const local = createLocalRuntime();
const NOISE = 12;
const env = { RIG_CACHE: PREPARED_CACHE };

const settings: ScenarioSettings = localScenario('shrink', {
  server: { bufferPool: '64M' }, disk: { trigger: { kind: 'at-time', ms: 6000 } }, expect: 'recovers',
});

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The built state, with the page 0 write torn and up to NOISE index page writes dropped. */
async function failingCycle(): Promise<Page0Cycle> {
  const state = await tornPage0Cycle(settings, work, env.RIG_CACHE, local, NOISE);
  t.comment(`built: page 0 write ${state.page0Seq} torn, ${state.dropped} index page writes dropped; ${state.record.verdict}: ${state.record.reason}`);
  return state;
}

const built = failingCycle();

t.test('bad input: one line, exit 2, nothing made', async (t) => {
  await ensureBuilt();
  const { dir } = await built;
  const held = join(work, 'held');
  mkdirSync(join(held, 'cut'), { recursive: true });
  const record = readJson<CycleRecord>(join(dir, 'cycle.json'));
  const write = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));
  write(join(held, 'cycle.json'), { ...record, verdict: 'restored', expectationHeld: true });
  const bare = join(work, 'bare');
  mkdirSync(bare, { recursive: true });
  write(join(bare, 'cycle.json'), record);
  const taken = join(work, 'taken');
  mkdirSync(taken, { recursive: true });
  writeFileSync(join(taken, 'x'), 'x');
  const cases: [string, string[], RegExp][] = [
    ['a folder with no record', [work + '/nowhere'], /holds no cycle\.json/],
    ['a cycle that held its expectation', [held], /held its expectation \(recovers: restored\): nothing to shrink/],
    ['a cycle that kept no evidence', [bare], /kept no evidence \(cut\/image\.img is missing\)/],
    ['an --out that is taken', [dir, '--out', taken], /--out .*taken exists and is not empty; name a new folder/],
    ['a bound too small', [dir, '--max-trials', '2', '--out', join(work, 'small')], /--max-trials must be a whole number of at least 3/],
  ];
  for (const [what, args, message] of cases) {
    const run = await rig(['shrink', ...args], env);
    t.equal(run.exitCode, 2, `${what}: exit 2 (${run.stderr.trim()})`);
    t.equal(run.stderr.trim().split('\n').length, 1, `${what}: one line`);
    t.match(run.stderr, message, what);
  }
  t.notOk(existsSync(join(work, 'small')), 'no --out folder made');
  t.notOk(existsSync(join(dir, 'shrunk')), 'no default folder made');
});

t.test('shrunk to the page-0 write alone, 1-minimal, the finding kept; repro rebuilds it', async (t) => {
  const { dir, page0Seq, record, dropped } = await built;
  t.equal(record.verdict, 'reported-corruption', 'the built state fails');
  t.ok(dropped > 0, `${dropped} index page writes dropped beside the page-0 write: something to shrink away`);
  const out = join(work, 'shrunk');
  const run = await rig(['shrink', dir, '--out', out], env);
  t.comment(run.stdout + run.stderr.split('\n').slice(-8).join('\n'));
  t.equal(run.exitCode, 0, run.stderr.split('\n').slice(-3).join(' | '));
  t.match(run.stderr, /rig shrink: trial \d+: /, 'progress on stderr');
  const shrunk = readJson<CycleRecord>(join(out, 'cycle.json'));
  t.match(shrunk.shrunk, { failure: 'reported-corruption, finding page0-not-restored', writesBefore: dropped + 1, writesAfter: 1, minimal: true, stopped: null });
  const plan = readJson<CrashPlan>(join(out, 'cut', 'plan.json'));
  t.same(plan.writes.filter((w) => w.fate !== 'landed').map((w) => w.seq), [page0Seq], 'only the page-0 write did not land');
  t.equal(shrunk.verdict, 'reported-corruption');
  t.same(shrunk.tornPagesBefore.map((p) => p.page), [0]);
  t.ok(shrunk.shrunk!.trials <= 6, `${shrunk.shrunk!.trials} trials: the oracle's page first`);
  const repro = await rig(['repro', out], env);
  t.match(repro.stdout, `crash image rebuilt, sha256 ${shrunk.crashImageSha256} (matches the record)`, 'byte for byte');
  await rig(['repro', '--down', out], env);
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
});

t.test('SIGINT during the search keeps the smallest failing plan so far, and nothing else', async (t) => {
  const { dir } = await built;
  const out = join(work, 'interrupted');
  const child = rig(['shrink', dir, '--out', out], env);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (/trial 3: /.test(stderr)) child.kill('SIGINT');
  });
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', 'the run ends by the re-raised signal');
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
  const shrunk = readJson<CycleRecord>(join(out, 'cycle.json'));
  t.equal(shrunk.shrunk?.stopped, 'signal');
  t.notOk(existsSync(join(out, '.shrink')), 'no trial left');
  const repro = await rig(['repro', out], env);
  t.match(repro.stdout, `crash image rebuilt, sha256 ${shrunk.crashImageSha256} (matches the record)`, 'the kept plan rebuilds byte for byte');
  await rig(['repro', '--down', out], env);
});

t.test('SIGINT while a bundle copies the datadir: no tarball, no staging, the repro disk taken down', async (t) => {
  const out = join(work, 'shrunk');
  const tarball = join(work, 'interrupted.tar.gz');
  const child = rig(['bundle', out, '--out', tarball], env);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (/copying the datadir/.test(stderr)) child.kill('SIGINT');
  });
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.trim()})`);
  t.match(ended.stderr, /^  rebuilding the crash image\.\.\.\n  copying the datadir\.\.\.\n/, 'each step said as it starts');
  t.notOk(existsSync(tarball), 'no tarball');
  t.same(readdirSync(work).filter((f) => f.startsWith('.bundle-')), [], 'no staging folder');
  t.notOk(existsSync(join(out, 'repro')), 'the repro disk taken down and its folder removed');
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
});

t.test('SIGINT while repro rebuilds the crash image: the disk is not left up', async (t) => {
  const out = join(work, 'shrunk');
  const child = rig(['repro', out], env);
  child.stderr?.on('data', (chunk: Buffer) => {
    if (/rebuilding the crash image/.test(chunk.toString())) child.kill('SIGINT');
  });
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.trim()})`);
  t.notMatch(ended.stdout, /when done: rig repro --down/, 'no disk offered to a person who asked to stop');
  t.notOk(existsSync(join(out, 'repro')), 'the repro disk taken down and its folder removed');
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
});

t.test('the bundle of the shrunk state: reproduce.sh with the host server exits 1 and shows the log line; with the copy put back, 0; with no server, 125', async (t) => {
  const out = join(work, 'shrunk');
  const tarball = join(work, 'page0.tar.gz');
  const made = await rig(['bundle', out, '--out', tarball], env);
  t.equal(made.exitCode, 0, made.stderr);
  t.comment(made.stdout.trim());
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  await execa('tar', ['xzf', tarball, '-C', unpacked]);
  const dir = join(unpacked, 'page0');
  for (const f of ['README.md', 'FINDING.md', 'reproduce.sh', 'expected.env', 'server-options.txt', 'rig/cycle.json', 'rig/error.log', 'datadir/ibdata1']) t.ok(existsSync(join(dir, f)), `${f} in the bundle`);
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const fix = /^dd if=datadir\/ibdata1 of=datadir\/\S+ bs=16384 skip=\d+ seek=0 count=1 conv=notrunc$/m.exec(readme)?.[0];
  t.ok(fix, 'the README says how to put the copy back by hand');
  // no Node on the PATH: the script needs a shell and the server
  const bare = { PATH: '/usr/sbin:/usr/bin:/bin', MARIADBD: '/usr/sbin/mariadbd' };
  const run = await execa('./reproduce.sh', { cwd: dir, env: bare, extendEnv: false, reject: false });
  t.comment(run.stdout);
  t.equal(run.exitCode, 1, 'the failure reproduced');
  t.match(run.stdout, /reproduce\.sh: REPRODUCED/);
  t.match(run.stdout, /this run's log: +.*The first page of file \.\/sbtest\/sbtest\d+\.ibd is corrupted/, 'the same log line, shown');
  t.match(run.stdout, /this run saw: +corrupts \(CHECK TABLE failed on/, 'what it saw, beside what the rig saw');
  await execa('sh', ['-c', fix!], { cwd: dir });
  const fixed = await execa('./reproduce.sh', { cwd: dir, env: bare, extendEnv: false, reject: false });
  t.comment(fixed.stdout);
  t.equal(fixed.exitCode, 0, 'with page 0 its doublewrite copy: the server recovers cleanly');
  const none = await execa('./reproduce.sh', { cwd: dir, env: { ...bare, MARIADBD: '/nonexistent/mariadbd' }, extendEnv: false, reject: false });
  t.equal(none.exitCode, 125, `no server: cannot run (${none.stdout.trim()})`);
  // a docker client whose engine does not answer, as on a machine where dockerd is not started
  const bin = join(work, 'no-engine-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'docker'), '#!/bin/sh\necho "Cannot connect to the Docker daemon" >&2\nexit 1\n', { mode: 0o755 });
  const noEngine = await execa('./reproduce.sh', { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin` }, extendEnv: false, reject: false });
  t.equal(noEngine.exitCode, 125, 'no engine: cannot run');
  t.match(noEngine.stdout + noEngine.stderr, /docker does not answer \(start its engine, or set MARIADBD= or MYSQLD= to a server build\)/, 'and says so, not that an image is missing');
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
  const again = await rig(['bundle', out, '--out', tarball], env);
  t.equal(again.exitCode, 2, 'a bundle target that exists: bad input');
  t.match(again.stderr, /exists; name a new file/);
});

t.test('the shrunk crash judged again on another server build: the same oracle, the server named, the failure still there', async (t) => {
  const out = join(work, 'shrunk');
  const binary = await rig(['repro', out, '--recover', '--server-binary', '/usr/sbin/mariadbd'], env);
  t.comment(binary.stdout);
  t.equal(binary.exitCode, 1, `exit 1 while the failure is still there (${binary.stderr.trim().split('\n').slice(-2).join(' | ')})`);
  t.match(binary.stdout, /^re-judged on mariadbd 10\.11\.\d+\S* \(\/usr\/sbin\/mariadbd\): reported-corruption: /m);
  t.match(binary.stdout, /the failure is still there: reported-corruption, finding page0-not-restored/);
  const record = readJson<CycleRecord>(/record: (\S+)/.exec(binary.stdout)![1]!);
  t.match(record.server?.version, /^mariadbd 10\.11\./, 'the record names the server');
  const cases: [string, string[], RegExp][] = [
    ['a server without --recover', [out, '--server-binary', '/usr/sbin/mariadbd'], /name the server for --recover; add --recover/],
    ['a binary that is not one', [out, '--recover', '--server-binary', join(work, 'nowhere')], /--server-binary .*nowhere is not an executable file/],
    ['a binary and an image', [out, '--recover', '--server-binary', '/usr/sbin/mariadbd', '--image', 'x'], /--server-binary runs a binary on this host/],
  ];
  for (const [what, args, message] of cases) {
    const run = await rig(['repro', ...args], env);
    t.equal(run.exitCode, 2, `${what}: exit 2 (${run.stderr.trim()})`);
    t.equal(run.stderr.trim().split('\n').length, 1, `${what}: one line`);
    t.match(run.stderr, message, what);
  }
  t.same(await leftoversUnder(work), [], 'nothing left mounted, attached or running');
});
