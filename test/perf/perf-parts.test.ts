/** rig perf's pure parts: sysbench's closing statistics, the ratios and their spread, the pair of settings. */
import t from 'tap';
import { formatChange, median, ratioSpread } from '../../rig/perf/ratio-spread.js';
import { perfSettings } from '../../rig/cli/perf-scenario.js';
import { readSysbenchSummary } from '../../rig/perf/sysbench-summary.js';
import { timedSysbenchArgs } from '../../rig/perf/timed-sysbench.js';
import { RigError } from '../../rig/errors.js';
import { missingPairs, withPerfTrouble } from '../../rig/results/perf-outcome.js';
import type { ScenarioSummary } from '../../rig/results/types.js';
import type { PerfPairRecord } from '../../rig/results/perf-pair-record.js';

const OUTPUT = `sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

SQL statistics:
    queries performed:
        read:                            0
        write:                           35428
        other:                           17714
        total:                           53142
    transactions:                        8857   (1771.01 per sec.)
    queries:                             53142  (10626.06 per sec.)
    ignored errors:                      3      (0.60 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          5.0010s
    total number of events:              8857

Latency (ms):
         min:                                    0.98
         avg:                                   18.05
         max:                                  142.40
         99th percentile:                       54.83
         sum:                               159880.51
`;

t.test('sysbench closing statistics', async (t) => {
  const s = readSysbenchSummary(OUTPUT)!;
  t.match(s, { writes: 35428, transactions: 8857, seconds: 5.001, p99Ms: 54.83, errors: 3 });
  t.equal(s.writeQps, 35428 / 5.001);
  t.equal(s.tps, 8857 / 5.001);
  t.equal(readSysbenchSummary(OUTPUT.replace(/^.*99th percentile.*$/m, '')), null, 'no percentile: no summary');
  t.equal(readSysbenchSummary('FATAL: error 2013: Lost connection'), null);
  t.equal(readSysbenchSummary(OUTPUT.replace('5.0010s', '0.0000s')), null, 'no time, no rates');
});

t.test('ratios off / on per pair, with their spread', async (t) => {
  const r = ratioSpread([100, 200, 50], [150, 200, 40]);
  t.same(r.pairs, [1.5, 1, 0.8]);
  t.same([r.median, r.min, r.max], [1, 0.8, 1.5]);
  t.equal(median([4, 1, 3, 2]), 2.5);
  t.throws(() => ratioSpread([1, 2], [1]), /as many runs/);
  t.throws(() => ratioSpread([], []), /as many runs/);
  t.equal(formatChange(1.47), '+47%');
  t.equal(formatChange(0.976), '-2%');
  t.equal(formatChange(1), '+0%');
});

t.test('the pair differs in doublewrite only, on the aligned filesystem with 16k atomic writes', async (t) => {
  const pair = perfSettings({ profile: 'essd' });
  const { server: onServer, name: _a, expect: _e1, ...onRest } = pair.on;
  const { server: offServer, name: _b, expect: _e2, ...offRest } = pair.off;
  t.same(onRest, offRest, 'disk, load and runtime the same');
  t.same({ ...onServer, doublewrite: false }, offServer, 'server settings the same but doublewrite');
  t.equal(onServer.doublewrite, true);
  t.match(pair.on.disk, { fs: 'ext4-bigalloc16k', atomicUnit: 16384, profile: 'essd', model: { cache: 'durable' } });
  t.match(pair.on.load, { kind: 'sysbench', connections: 32, tables: 16, rows: 25000 });
  t.equal(pair.on.server.bufferPool, '32M');
  t.equal(pair.on.server.flushing, 'stock', "the server's own page flushing unless told");
  t.equal(perfSettings({ flushing: 'eager' }).off.server.flushing, 'eager', '--flushing eager: the cycles\' flushing');
  t.match(perfSettings({ connections: '8', tables: '2', rows: '100', bufferPool: '64M' }).off, { load: { connections: 8, tables: 2, rows: 100 }, server: { bufferPool: '64M' }, disk: { profile: 'local' } });
  for (const [flags, message] of [
    [{ profile: 'floppy' }, /--profile: 'floppy'/],
    [{ connections: '0' }, /--connections/],
    [{ rows: 'many' }, /--rows/],
    [{ flushing: 'lazy' }, /--flushing/],
  ] as const) {
    let caught: unknown = null;
    try {
      perfSettings(flags);
    } catch (error) {
      caught = error;
    }
    t.ok(caught instanceof RigError && caught.code === 'bad-input', `${JSON.stringify(flags)} is bad input`);
    t.match((caught as Error).message, message);
  }
});

t.test("sysbench's arguments: the +47% figure's shape, the 99th percentile, a time limit", async (t) => {
  const args = timedSysbenchArgs({ socketPath: '/r/s.sock', tables: 16, rows: 25000, connections: 32, seconds: 60, seed: 2 });
  t.equal(args[0], 'oltp_write_only');
  for (const a of ['--mysql-socket=/r/s.sock', '--tables=16', '--table-size=25000', '--threads=32', '--time=60', '--rand-type=special', '--rand-spec-pct=15', '--percentile=99', '--rand-seed=2']) {
    t.ok(args.includes(a), a);
  }
  t.equal(args.at(-1), 'run');
  const big = timedSysbenchArgs({ socketPath: '/r/s.sock', tables: 1, rows: 1, connections: 1, seconds: 1, seed: 3735928559 });
  t.ok(big.includes(`--rand-seed=${3735928559 % 0x7fffffff}`), 'a campaign seed above 2^31 - 1 is folded into what sysbench takes');
});

t.test('a pair the rig could not measure makes a passing campaign a rig error, and nothing else', async (t) => {
  const pair = (error: string | null): PerfPairRecord => ({ id: 'p-1', scenario: 'p', cycle: 1, seed: 1, on: null, off: null, error, versions: { server: 's', sysbench: 'b' } });
  t.equal(withPerfTrouble('pass', [pair(null)], []), 'pass');
  t.equal(withPerfTrouble('pass', [pair(null), pair('sysbench failed')], []), 'rig-error');
  t.equal(withPerfTrouble('fail', [pair('sysbench failed')], []), 'fail', 'a finding outranks it');
  t.equal(withPerfTrouble('running', [pair('x')], []), 'running');
});

t.test('a perf scenario with fewer pairs than planned makes a passing campaign a rig error', async (t) => {
  const pair = (scenario: string, cycle: number): PerfPairRecord => ({ id: `${scenario}-${cycle}`, scenario, cycle, seed: 1, on: null, off: null, error: null, versions: { server: 's', sysbench: 'b' } });
  const summary = (name: string, pairsPlanned?: number) => ({ name, ...(pairsPlanned !== undefined ? { pairsPlanned } : {}) }) as ScenarioSummary;
  const scenarios = [summary('a', 2), summary('b', 1), summary('live')];
  t.same(missingPairs([pair('a', 1), pair('a', 2), pair('b', 1)], scenarios), []);
  t.equal(withPerfTrouble('pass', [pair('a', 1), pair('a', 2), pair('b', 1)], scenarios), 'pass', 'every pair there');
  t.same(missingPairs([pair('a', 2)], scenarios), ['a: 1/2', 'b: 0/1']);
  t.equal(withPerfTrouble('pass', [pair('a', 2)], scenarios), 'rig-error', 'pairs missing');
  t.equal(withPerfTrouble('fail', [pair('a', 2)], scenarios), 'fail', 'a finding outranks it');
  t.same(missingPairs([], [summary('live')]), [], 'a scenario with no pairsPlanned (not perf, or older results) misses none');
});
