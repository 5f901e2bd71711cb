/** rig perf's axes: the flags checked, the two members each axis builds, B / A ratios, their names and the summary text. */
import t from 'tap';
import { perfPlan, type PerfFlags } from '../../rig/cli/perf-scenario.js';
import { RigError } from '../../rig/errors.js';
import type { PerfRecord, PerfRun } from '../../rig/perf/perf-record.js';
import { comparisonLine, formatPerfSummary } from '../../rig/perf/perf-summary.js';
import { ratioName } from '../../rig/perf/ratio-name.js';
import { runRatios } from '../../rig/perf/run-ratios.js';
import { readSysbenchSummary } from '../../rig/perf/sysbench-summary.js';
import { timedSysbenchArgs } from '../../rig/perf/timed-sysbench.js';


t.test('bad flags: one line naming the flag and the fix', async (t) => {
  const cases: [string, PerfFlags, RegExp][] = [
    ['unknown axis', { compare: 'disk' }, /^--compare: 'disk' is not doublewrite, engine or profile; e\.g\. --compare engine$/],
    ['unknown workload', { workload: 'mixed' }, /^--workload: 'mixed' is not write-only or read-write; e\.g\. --workload read-write$/],
    ['one profile to compare', { compare: 'profile', profile: 'nvme' }, /^--profile: --compare profile needs two profiles, A then B; give them as --profile nvme,pmem$/],
    ['no profile to compare', { compare: 'profile' }, /--compare profile needs two profiles/],
    ['three profiles to compare', { compare: 'profile', profile: 'nvme,pmem,essd' }, /needs two profiles/],
    ['the same profile twice', { compare: 'profile', profile: 'nvme,nvme' }, /names nvme twice/],
    ['two profiles on another axis', { compare: 'engine', profile: 'nvme,pmem' }, /names 2 profiles; only --compare profile takes two/],
    ['two profiles by default', { profile: 'nvme,pmem' }, /only --compare profile takes two/],
    ['an empty name', { compare: 'profile', profile: 'nvme,' }, /has an empty name/],
    ['an engine on the engine axis', { compare: 'engine', engine: 'rocksdb' }, /^--engine: --compare engine runs both innodb and rocksdb; drop --engine$/],
    ['an unknown engine', { engine: 'myisam' }, /--engine/],
    ['an unknown second profile', { compare: 'profile', profile: 'nvme,floppy' }, /--profile: 'floppy'/],
  ];
  for (const [name, flags, message] of cases) {
    t.test(name, async (t) => {
      const caught = t.throws(() => perfPlan(flags)) as unknown;
      t.ok(caught instanceof RigError && caught.code === 'bad-input', 'bad input');
      t.match((caught as Error).message, message);
      t.notMatch((caught as Error).message, /\n/, 'one line');
    });
  }
});

t.test('doublewrite is the default axis and write-only the default workload', async (t) => {
  const { comparison, workload } = perfPlan({ profile: 'essd' });
  t.equal(workload, 'write-only');
  t.equal(comparison.axis, 'doublewrite');
  t.same([comparison.a.label, comparison.b.label], ['on', 'off']);
  t.same([comparison.a.settings.server.doublewrite, comparison.b.settings.server.doublewrite], [true, false]);
});

t.test('engine: innodb against rocksdb, nothing else differs', async (t) => {
  const { comparison, workload } = perfPlan({ compare: 'engine', profile: 'pmem', workload: 'read-write' });
  t.equal(workload, 'read-write');
  t.same([comparison.a.label, comparison.b.label], ['innodb', 'rocksdb']);
  const { server: sa, name: _a, ...a } = comparison.a.settings;
  const { server: sb, name: _b, ...b } = comparison.b.settings;
  t.same(a, b, 'disk, load, runtime the same');
  t.same({ ...sa, engine: 'rocksdb' }, sb, 'the server the same but its engine');
  t.match(a.disk, { profile: 'pmem', fs: 'ext4-bigalloc16k', atomicUnit: 16384 });
  t.equal(sa.doublewrite, true, "InnoDB's default doublewrite");
});

t.test('profile: one engine on two profiles, A then B as given', async (t) => {
  const { comparison } = perfPlan({ compare: 'profile', profile: 'nvme, pmem', engine: 'rocksdb' });
  t.same([comparison.a.label, comparison.b.label], ['nvme', 'pmem']);
  t.same([comparison.a.settings.disk.model.cache, comparison.b.settings.disk.model.cache], ['durable', 'durable']);
  t.not(JSON.stringify(comparison.a.settings.disk.model), JSON.stringify(comparison.b.settings.disk.model), 'each its own device model');
  const { disk: da, name: _a, ...a } = comparison.a.settings;
  const { disk: db, name: _b, ...b } = comparison.b.settings;
  t.same(a, b, 'server, load, runtime the same');
  t.equal(a.server.engine, 'rocksdb');
  t.same({ ...da, profile: 'pmem', model: db.model }, db, 'the disk the same but its profile');
});

t.test('ratios are named by the axis, B over A', async (t) => {
  t.equal(ratioName({ axis: 'doublewrite', a: 'on', b: 'off' }, 'writeQps'), 'doublewrite off / on write QPS');
  t.equal(ratioName({ axis: 'engine', a: 'innodb', b: 'rocksdb' }, 'p99Ms'), 'engine rocksdb / innodb p99 latency');
  t.equal(ratioName({ axis: 'profile', a: 'nvme', b: 'pmem' }, 'readQps'), 'profile pmem / nvme read QPS');
  t.equal(ratioName({ axis: 'profile', a: 'nvme', b: 'pmem' }, 'tps'), 'profile pmem / nvme TPS');
});

const run = (repetition: number, setting: string, tps: number, p99Ms: number, reads = 0): PerfRun => ({
  repetition, setting, reads: reads * tps * 60, writes: 4 * tps * 60, transactions: tps * 60, seconds: 60, readQps: reads * tps, writeQps: 4 * tps, tps, p99Ms, errors: 0,
});

t.test('B / A per repetition, read QPS only when the workload reads', async (t) => {
  const runs = [run(1, 'innodb', 100, 50, 14), run(1, 'rocksdb', 120, 25, 14), run(2, 'innodb', 200, 40, 14), run(2, 'rocksdb', 180, 40, 14), run(3, 'innodb', 100, 10, 14)];
  const r = runRatios(runs, { a: 'innodb', b: 'rocksdb' }, true);
  t.same(r.tps.pairs, [1.2, 0.9], 'a repetition without both runs gives no ratio');
  t.same(r.p99Ms.pairs, [0.5, 1]);
  t.same(r.readQps!.pairs, r.tps.pairs);
  t.equal(runRatios(runs, { a: 'innodb', b: 'rocksdb' }, false).readQps, undefined);
  const swapped = runRatios(runs, { a: 'rocksdb', b: 'innodb' }, false);
  t.same(swapped.tps.pairs, [100 / 120, 200 / 180], 'the other way round is the inverse');
});

function record(compare: PerfRecord['compare'], runs: PerfRun[], test: PerfRecord['workload']['test']): PerfRecord {
  return {
    kind: 'perf',
    versions: { rig: '0.1.0', server: 'mariadbd 11.8.9-MariaDB', sysbench: 'sysbench 1.0.20', node: 'v20' },
    profile: { name: 'nvme', device: {} as PerfRecord['profile']['device'] },
    compare,
    machine: { cpus: 2, loadAverage: [1, 1, 1] },
    workload: { test, seconds: 30, connections: 32, tables: 16, rows: 25000, randType: 'special', randSpecPct: 15 },
    settings: {},
    runs,
    ratios: runRatios(runs, compare, test === 'oltp_read_write'),
    startedAt: '',
    finishedAt: '',
  };
}

t.test('the doublewrite summary keeps its lines', async (t) => {
  const text = formatPerfSummary(record({ axis: 'doublewrite', a: 'on', b: 'off' }, [run(1, 'on', 100, 40), run(1, 'off', 150, 20)], 'oltp_write_only'));
  const lines = text.split('\n');
  t.match(lines[0], /^doublewrite on against off, profile nvme, mariadbd 11\.8\.9-MariaDB, oltp_write_only, 30 s a run, 32 threads, 16 x 25000 rows, eager flushing \(max_dirty_pages_pct=5, lwm 1, io_capacity=2000\)$/, 'a record that names no flushing had eager flushing');
  t.equal(lines[1], '  1 doublewrite on   write QPS 400.0  TPS 100.0  p99 40.00 ms');
  t.equal(lines[2], '  1 doublewrite off  write QPS 600.0  TPS 150.0  p99 20.00 ms');
  t.equal(lines[3], 'doublewrite off / on write QPS: 1.500 (min 1.500, max 1.500, 1 pairs)');
  t.equal(lines[4], 'doublewrite off / on TPS: 1.500 (min 1.500, max 1.500, 1 pairs)');
  t.equal(lines[5], 'doublewrite off / on p99 latency: 0.500 (min 0.500, max 0.500, 1 pairs)');
  t.equal(lines[6], 'doublewrite off / on on profile nvme, eager flushing, oltp_write_only, median of 1 pairs: write QPS +50%, TPS +50%, p99 latency x0.50');
  t.equal(lines.length, 7);
});

t.test("stock flushing, rig perf's default, is named in the heading and the comparison line", async (t) => {
  const r = record({ axis: 'doublewrite', a: 'on', b: 'off' }, [run(1, 'on', 100, 40), run(1, 'off', 130, 30)], 'oltp_write_only');
  r.settings = { on: { server: { flushing: 'stock' } } as PerfRecord['settings'][string] };
  t.match(formatPerfSummary(r).split('\n')[0], /, stock flushing \(the server's defaults\)$/);
  t.match(comparisonLine(r), /^doublewrite off \/ on on profile nvme, stock flushing, oltp_write_only, median of 1 pairs: write QPS \+30%/);
});

t.test('a read-write comparison of profiles adds read QPS and names the engine', async (t) => {
  const runs = [run(1, 'nvme', 100, 40, 14), run(1, 'pmem', 121, 20, 14), run(2, 'nvme', 100, 40, 14), run(2, 'pmem', 110, 10, 14), run(3, 'nvme', 100, 40, 14), run(3, 'pmem', 130, 30, 14)];
  const r = record({ axis: 'profile', a: 'nvme', b: 'pmem' }, runs, 'oltp_read_write');
  r.settings = { nvme: { server: { engine: 'rocksdb' } } as PerfRecord['settings'][string] };
  const text = formatPerfSummary(r);
  t.match(text, /^profile nvme against pmem, profiles nvme and pmem, /);
  t.match(text, /^ {2}1 profile pmem  write QPS 484\.0 {2}read QPS 1694\.0 {2}TPS 121\.0 {2}p99 20\.00 ms$/m);
  t.match(text, /^profile pmem \/ nvme read QPS: 1\.210 \(min 1\.100, max 1\.300, 3 pairs\)$/m);
  t.equal(comparisonLine(r), 'profile pmem / nvme on engine rocksdb, eager flushing, oltp_read_write, median of 3 pairs: write QPS +21%, read QPS +21%, TPS +21%, p99 latency x0.50');
});

t.test("sysbench's reads and the workload's test", async (t) => {
  const out = 'queries performed:\n        read:                            140\n        write:                           40\n    transactions:                        10   (1.0 per sec.)\n    total time:                          10.0000s\n         99th percentile:                       5.00\n';
  t.match(readSysbenchSummary(out), { reads: 140, readQps: 14, writes: 40, writeQps: 4 });
  t.match(readSysbenchSummary(out.replace(/^.*read:.*\n/m, '')), { reads: 0, readQps: 0 }, 'no read line: no reads');
  const base = { socketPath: '/s', tables: 1, rows: 1, connections: 1, seconds: 1, seed: 1 };
  t.equal(timedSysbenchArgs(base)[0], 'oltp_write_only');
  t.equal(timedSysbenchArgs({ ...base, workload: 'read-write' })[0], 'oltp_read_write');
  t.ok(timedSysbenchArgs({ ...base, workload: 'read-write' }).includes('--mysql-socket=/s'));
});
