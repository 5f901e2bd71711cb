import t from 'tap';
import { Throughput } from '../../rig/load/throughput.js';
import { AckedCommits } from '../../rig/load/acked-commits.js';
import { readSysbenchReport, sysbenchFailure } from '../../rig/load/sysbench-report.js';
import { isConnectionLost, isRetryable, toLoadError } from '../../rig/load/load-errors.js';
import { sysbenchArgs } from '../../rig/load/sysbench.js';
import { cValue, padValue } from '../../rig/load/sbtest-values.js';
import { createRng } from '../../faults/prng.js';

t.test('throughput counts into 250 ms buckets, empty ones included', async (t) => {
  let now = 1000;
  const throughput = new Throughput(250, () => now);
  now = 1010; throughput.count();
  now = 1240; throughput.count();
  now = 1800; throughput.count(2);
  t.same(throughput.buckets(), [
    { tMs: 0, commits: 2 }, { tMs: 250, commits: 0 }, { tMs: 500, commits: 0 }, { tMs: 750, commits: 2 },
  ]);
  t.equal(throughput.elapsedMs(), 800);
});

t.test('acknowledged commits: per client max seq, in order, counted', async (t) => {
  const acked = new AckedCommits();
  acked.begin(1, 10);
  acked.begin(2, 0);
  acked.ack(1, 11);
  acked.ack(1, 12);
  acked.ack(2, 1);
  t.same([...acked.snapshot()], [[1, 12], [2, 1]]);
  t.equal(acked.count, 3);
  t.throws(() => acked.ack(2, 3), /acknowledged seq 3 after 1/, 'a gap is a rig bug, not a result');
});

t.test('sysbench interval reports and failures', async (t) => {
  t.same(readSysbenchReport('[ 2s ] thds: 4 tps: 812.93 qps: 4877.58 (r/w/o: 0.00/3251.72/1625.86) lat (ms,95%): 7.98 err/s: 0.00 reconn/s: 0.00', 1000), { tMs: 1000, commits: 813 });
  t.equal(readSysbenchReport('Threads started!', 1000), null);
  t.equal(sysbenchFailure('Threads started!\nFATAL: mysql_drv_query() returned error 2013 (Lost connection to server during query)\n'), 'FATAL: mysql_drv_query() returned error 2013 (Lost connection to server during query)');
  t.equal(sysbenchFailure('all fine'), null);
  const args = sysbenchArgs({ socketPath: '/r/s.sock', connections: 4, tables: 4, rows: 10 });
  t.ok(args.includes('--mysql-socket=/r/s.sock') && args.includes('--time=0') && args.at(-1) === 'run');
});

t.test('load errors: retry on deadlock and lock wait, stop on a lost server', async (t) => {
  t.ok(isRetryable({ errno: 1213 }));
  t.ok(isRetryable({ errno: 1205 }));
  t.notOk(isRetryable({ errno: 1062 }));
  t.ok(isConnectionLost({ code: 'PROTOCOL_CONNECTION_LOST', fatal: true }));
  t.ok(isConnectionLost({ errno: 2013 }));
  t.notOk(isConnectionLost({ errno: 1062, code: 'ER_DUP_ENTRY' }));
  t.same(toLoadError(3, 12.6, { code: 'ER_DUP_ENTRY', errno: 1062, message: 'dup' }), {
    client: 3, atMs: 13, code: 'ER_DUP_ENTRY', message: 'dup', connectionLost: false,
  });
});

t.test('row values have sysbench\'s shape', async (t) => {
  const rng = createRng(5);
  t.match(cValue(rng), /^(\d{11}-){9}\d{11}$/);
  t.equal(cValue(rng).length, 119);
  t.equal(padValue(rng).length, 59);
});
