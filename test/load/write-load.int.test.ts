// The dataset, the builtin and sysbench loads, and the ledger and table checks, on a real mariadbd
// on a plain temp dir: a kill under load must lose no acknowledged commit on a normal disk.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { prepareDataset, runBuiltinLoad, runSysbenchLoad, type LoadResult } from '../../rig/load/index.js';
import { checkInvariants } from '../../rig/checks/invariants.js';
import { verifyLedger } from '../../rig/checks/ledger.js';
import { checkTables } from '../../rig/checks/tables.js';
import { closeQuietly, connectToServer } from '../../rig/runtime/local.js';
import type { StartedServer } from '../../rig/runtime/types.js';
import { initializedSpec, runtime, startServer } from '../fixtures/local-server.js';

const shape = { tables: 4, rows: 10_000 };

async function withConnection<T>(server: StartedServer, use: (c: Awaited<ReturnType<typeof connectToServer>>) => Promise<T>) {
  const connection = await connectToServer({ socketPath: server.socketPath });
  try {
    return await use(connection);
  } finally {
    await closeQuietly(connection);
  }
}

async function runFor(ms: number, start: () => { stop(): Promise<LoadResult> }): Promise<LoadResult> {
  const load = start();
  await sleep(ms);
  return load.stop();
}

t.test('dataset, load, kill under load, recovery', async (top) => {
  const t = top;
  const spec = await initializedSpec(t);
  let server = await startServer(t, spec);

  const began = performance.now();
  await prepareDataset({ socketPath: server.socketPath }, shape);
  const prepareMs = performance.now() - began;
  t.comment(`dataset ${shape.tables} x ${shape.rows} rows in ${Math.round(prepareMs)} ms`);
  t.ok(prepareMs < 20_000, 'dataset creation is quick');
  const [counts] = await withConnection(server, (c) =>
    c.query('SELECT COUNT(*) AS n, COUNT(DISTINCT k) > 1 AS spread FROM sbtest.sbtest4'),
  );
  t.same(counts, [{ n: 10_000, spread: 1 }]);

  await t.test('the builtin load acknowledges commits, all of them stored', async (t) => {
    const result = await runFor(2000, () => runBuiltinLoad({ socketPath: server.socketPath, connections: 4, ...shape }));
    t.comment(`${result.ackedCount} commits in ${result.durationMs} ms, ${result.retried} retried`);
    t.equal(result.endedBy, 'stopped');
    t.same(result.errors, []);
    t.ok(result.ackedCount > 20, `acked ${result.ackedCount}`);
    t.same([...result.acked.keys()].sort(), [1, 2, 3, 4]);
    t.ok(result.throughput.length >= 6, `${result.throughput.length} buckets of ${result.bucketMs} ms`);
    t.equal(result.throughput.reduce((s, b) => s + b.commits, 0), result.ackedCount);
    const ledger = await withConnection(server, (c) => verifyLedger(c, result));
    t.equal(ledger.missing, 0);
    t.ok(ledger.clients.every((c) => c.stored === c.acked), 'a clean stop leaves stored == acknowledged');
    const tables = await withConnection(server, (c) => checkTables(c));
    t.same(tables, { tables: 6, failed: [], serverLost: false }, 'four sbtest tables, the ledger and the history');
    const invariants = await withConnection(server, (c) => checkInvariants(c, { ...shape, ledger: true }));
    t.same(invariants, { checked: true, violations: [] }, 'a history row for every commit, ids 1..rows in every table');
  });

  await t.test('the ledger check finds an acknowledged commit that is not stored', async (t) => {
    const stored = await withConnection(server, (c) => c.query('SELECT client, seq FROM sbtest.rig_ledger'));
    const acked = new Map((stored[0] as Array<{ client: number; seq: string }>).map((r) => [r.client, Number(r.seq)]));
    acked.set(2, (acked.get(2) ?? 0) + 3);
    const ledger = await withConnection(server, (c) => verifyLedger(c, { acked, ackedCount: 3 }));
    t.equal(ledger.missing, 3);
    t.match(ledger.clients.find((c) => c.client === 2), { missing: 3 });
  });

  await t.test('sysbench oltp_write_only runs on the same dataset, without a ledger', async (t) => {
    const result = await runFor(2500, () => runSysbenchLoad({ socketPath: server.socketPath, connections: 4, ...shape }));
    t.equal(result.kind, 'sysbench');
    t.equal(result.ledger, false);
    t.match(result.note, /no ledger/);
    t.equal(result.endedBy, 'stopped', JSON.stringify(result.errors));
    t.comment(`sysbench: ${result.ackedCount} transactions in ${result.throughput.length} reports`);
    t.ok(result.throughput.length >= 1 && result.ackedCount > 0, 'interval reports were read');
  });

  await t.test('a kill under load loses no acknowledged commit', async (t) => {
    const load = runBuiltinLoad({ socketPath: server.socketPath, connections: 4, ...shape, seed: 7 });
    await sleep(1500);
    await server.kill();
    const result = await load.result();
    t.equal(result.endedBy, 'connection-lost');
    t.equal(result.errors.length, 4);
    t.ok(result.errors.every((e) => e.connectionLost), 'every client lost the server');
    t.ok(result.ackedCount > 0);
    const outcome = await runtime.start(spec, 60_000);
    t.ok(outcome.ready, 'recovers on the same datadir');
    if (!outcome.ready) return;
    server = outcome.server;
    const restarted = server;
    top.teardown(() => restarted.kill()); // lives on for the next subtest
    const ledger = await withConnection(server, (c) => verifyLedger(c, result));
    t.comment(`acked ${ledger.acked}, missing ${ledger.missing}: ${JSON.stringify(ledger.clients)}`);
    t.equal(ledger.missing, 0);
    t.same(ledger.unexplained, []);
    t.same((await withConnection(server, (c) => checkTables(c))).failed, []);
  });

  await t.test('sysbench ends as connection-lost when the server is killed under it', async (t) => {
    const load = runSysbenchLoad({ socketPath: server.socketPath, connections: 2, ...shape });
    await sleep(1500);
    await server.kill();
    const result = await load.result();
    t.equal(result.endedBy, 'connection-lost', JSON.stringify(result.errors));
    t.equal(result.errors[0]?.connectionLost, true);
  });
});
