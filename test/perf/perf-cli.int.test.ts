/**
 * `rig perf` through the built CLI on the host's mariadbd with the `local` profile: bad input
 * refused in one line before anything is created (MyRocks too: the host's 10.11 has no plugin); a small comparison (2 interleaved repetitions)
 * whose perf.json holds every run, positive figures and ratios computed from those runs; SIGINT in
 * a run leaves no disk or server behind. No figure is held to a speed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sweepLeftovers } from '../../rig/cleanup/sweep-leftovers.js';
import { contextFromEnv } from '../../rig/context.js';
import type { PerfRecord } from '../../rig/perf/perf-record.js';
import { ensureBuilt, leftoversUnder, processesNaming, rig } from '../fixtures/rig-cli.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';

const base = mkdtempSync(join(tmpdir(), 'rig-perf-cli-'));
const tmp = join(base, 't');
mkdirSync(tmp);
// the run's disks go under TMPDIR, so what a run leaves shows under base
const env = { RIG_CACHE: PREPARED_CACHE, TMPDIR: tmp };
const SMALL = ['--profile', 'local', '--tables', '2', '--rows', '2000', '--connections', '8', '--seconds', '3'];

t.teardown(async () => {
  await sweepLeftovers({ context: contextFromEnv() });
  if ((await leftoversUnder(base)).length === 0) rmSync(base, { recursive: true, force: true });
});

t.before(ensureBuilt);

t.test('bad input exits 2 in one line before anything is created', async (t) => {
  const cases: [string, string[], RegExp][] = [
    ['no out', [], /--out is required/],
    ['unknown profile', ['--profile', 'floppy'], /--profile: 'floppy' is not a shipped profile/],
    ['zero repetitions', ['--repetitions', '0'], /--repetitions: '0' is not a whole number of at least 1/],
    ['seconds not a number', ['--seconds', 'soon'], /--seconds: 'soon'/],
    ['no tables', ['--tables', '0'], /--tables/],
    ['a buffer pool that is no size', ['--buffer-pool', 'lots'], /--buffer-pool/],
    ['unknown runtime', ['--runtime', 'vm'], /--runtime/],
    ['unknown axis', ['--compare', 'disk'], /--compare: 'disk' is not doublewrite, engine or profile/],
    ['unknown workload', ['--workload', 'mixed'], /--workload: 'mixed' is not write-only or read-write/],
    ['one profile to compare', ['--compare', 'profile', '--profile', 'nvme'], /--compare profile needs two profiles/],
    ['two profiles on the engine axis', ['--compare', 'engine', '--profile', 'nvme,pmem'], /only --compare profile takes two/],
    ['an engine on the engine axis', ['--compare', 'engine', '--engine', 'rocksdb'], /drop --engine/],
    ['rocksdb on a host server without the plugin', ['--compare', 'engine'], /engine: rocksdb needs MariaDB's RocksDB plugin/],
  ];
  for (const [name, args, message] of cases) {
    const out = join(base, `bad-${name.replace(/\W+/g, '-')}`);
    const run = await rig(['perf', ...args, ...(name === 'no out' ? [] : ['--out', out])], env);
    t.equal(run.exitCode, 2, `${name}: exit 2`);
    t.match(run.stderr, message, `${name}: says what was wrong (${run.stderr.trim()})`);
    t.equal(run.stderr.trim().split('\n').length, 1, `${name}: one line`);
    t.notOk(existsSync(out), `${name}: no output folder`);
  }
  t.same(await leftoversUnder(base), [], 'nothing mounted, attached or running');
});

t.test('two interleaved repetitions on the local profile', async (t) => {
  const out = join(base, 'perf');
  const run = await rig(['perf', ...SMALL, '--repetitions', '2', '--out', out], env);
  t.equal(run.exitCode, 0, `exit 0 (${run.stderr.trim().split('\n').slice(-2).join(' | ')})`);
  t.match(run.stdout, /^doublewrite off \/ on write QPS: \d+\.\d{3} \(min \d+\.\d{3}, max \d+\.\d{3}, 2 pairs\)$/m, 'the plain ratio line');
  t.match(run.stderr, /run 4\/4: doublewrite off/, 'progress on stderr');
  const record = JSON.parse(readFileSync(join(out, 'perf.json'), 'utf8')) as PerfRecord;
  t.equal(record.kind, 'perf');
  t.match(record.versions, { server: /^mariadbd 10\.11/, sysbench: /^sysbench / });
  t.equal(record.profile.name, 'local');
  t.same(record.runs.map((r) => `${r.repetition}${r.setting}`), ['1on', '1off', '2on', '2off'], 'runs interleaved on, off, on, off');
  for (const r of record.runs) {
    t.ok(r.writeQps > 0 && r.tps > 0 && r.p99Ms > 0 && r.writes > 0 && r.transactions > 0, `run ${r.repetition} ${r.setting}: figures positive`);
    t.equal(r.writeQps, r.writes / r.seconds, 'write QPS is writes over sysbench\'s time');
  }
  t.match(record.settings, { on: { server: { doublewrite: true }, disk: { fs: 'ext4-bigalloc16k', atomicUnit: 16384 } }, off: { server: { doublewrite: false }, disk: { fs: 'ext4-bigalloc16k', atomicUnit: 16384 } } });
  const by = (rep: number, setting: string) => record.runs.find((r) => r.repetition === rep && r.setting === setting)!;
  const pairs = [1, 2].map((rep) => by(rep, 'off').writeQps / by(rep, 'on').writeQps);
  t.same(record.ratios.writeQps.pairs, pairs, 'write QPS ratios are off / on per repetition');
  t.equal(record.ratios.writeQps.min, Math.min(...pairs));
  t.equal(record.ratios.writeQps.max, Math.max(...pairs));
  t.equal(record.ratios.writeQps.median, (pairs[0]! + pairs[1]!) / 2, 'the median of two is their mean');
  t.same(record.ratios.p99Ms.pairs, [1, 2].map((rep) => by(rep, 'off').p99Ms / by(rep, 'on').p99Ms));
  t.same(await leftoversUnder(base), [], 'nothing mounted, attached or running');
});

t.test('SIGINT during a run leaves nothing behind', async (t) => {
  const out = join(base, 'interrupted');
  const child = rig(['perf', ...SMALL, '--seconds', '120', '--out', out], env);
  const until = Date.now() + 300_000;
  while (processesNaming(tmp).filter((p) => /mariadbd/.test(p)).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 1500)); // sysbench under way
  child.kill('SIGINT');
  const stopped = await child;
  t.equal(stopped.signal, 'SIGINT', 'the run ends by the re-raised signal');
  t.notOk(existsSync(join(out, 'perf.json')), 'no perf.json from an interrupted comparison');
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
});
