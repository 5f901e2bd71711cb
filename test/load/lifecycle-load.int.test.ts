/**
 * The lifecycle load kinds on a real mariadbd on a plain temp dir: the mixed load runs every kind,
 * a clean stop leaves every table as its last acknowledged step did, a kill under load leaves a
 * legal outcome (each table as its last acknowledged step or its step in flight left it), and the
 * check catches what no crash may do: a table dropped, emptied, given rows or an index behind the
 * ledger's back.
 */
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkInvariants } from '../../rig/checks/invariants.js';
import { verifyLedger } from '../../rig/checks/ledger.js';
import { checkLifecycle } from '../../rig/checks/lifecycle.js';
import { checkTables } from '../../rig/checks/tables.js';
import { prepareDataset, runBuiltinLoad, type LifecycleLedger, type LoadResult } from '../../rig/load/index.js';
import { closeQuietly, connectToServer } from '../../rig/runtime/local.js';
import type { StartedServer } from '../../rig/runtime/types.js';
import { initializedSpec, runtime, startServer } from '../fixtures/local-server.js';

const shape = { tables: 2, rows: 1000 };
const mix = { 'write-only': 2, churn: 1, alter: 1, partitions: 1, 'partition-truncate': 1, bulk: 1 };

async function withConnection<T>(server: StartedServer, use: (c: Awaited<ReturnType<typeof connectToServer>>) => Promise<T>) {
  const connection = await connectToServer({ socketPath: server.socketPath, database: 'sbtest' });
  try {
    return await use(connection);
  } finally {
    await closeQuietly(connection);
  }
}

/** Steps acknowledged per kind: every kind of the mix ran. */
function stepsByKind(ledger: LifecycleLedger): Record<string, number> {
  const by: Record<string, number> = {};
  for (const table of ledger.tables) by[table.kind] = (by[table.kind] ?? 0) + table.history.length - 1;
  return by;
}

t.test('the mixed load, a clean stop, a kill under load, and tampering', async (top) => {
  const spec = await initializedSpec(top);
  let server = await startServer(top, spec);
  // the partitions kind's tables come from the dataset, one per connection: prepared for each load
  const prepare = (connections: number) => prepareDataset({ socketPath: server.socketPath }, { ...shape, mix, connections });
  await prepare(3);

  await top.test('every kind runs; a clean stop leaves every acknowledged step in effect', async (t) => {
    const load = runBuiltinLoad({ socketPath: server.socketPath, connections: 3, ...shape, mix, seed: 5 });
    await sleep(6000);
    const result = await load.stop();
    t.same(result.errors, [], 'no client failed');
    const ledger = result.lifecycle!;
    const by = stepsByKind(ledger);
    t.comment(`${result.ackedCount} commits, ${ledger.acked} lifecycle steps: ${JSON.stringify(by)}`);
    for (const kind of ['churn', 'alter', 'partitions', 'partition-truncate', 'bulk']) t.ok((by[kind] ?? 0) > 0, `${kind} acknowledged steps`);
    t.equal(ledger.tables.length, 3 * (2 + 1 + 1 + 1 + 1), 'two churn tables and one of each other kind per client');
    t.ok(ledger.tables.every((x) => x.inFlight === null), 'nothing in flight after a clean stop');
    const check = await withConnection(server, (c) => checkLifecycle(c, ledger));
    t.same(check, { acked: ledger.acked, missing: 0, lost: [], violations: [] });
    t.same(await withConnection(server, (c) => checkInvariants(c, { ...shape, ledger: true })), { checked: true, violations: [] }, 'the sbtest invariants hold as before');
    const tables = await withConnection(server, (c) => checkTables(c));
    t.same(tables.failed, [], `CHECK TABLE on ${tables.tables} tables`);
  });

  await top.test('a load refuses a prepared table that is not as prepared', async (t) => {
    await withConnection(server, (c) => c.query('ALTER TABLE parts_c1 ADD PARTITION (PARTITION p90 VALUES LESS THAN (91001))'));
    const load = runBuiltinLoad({ socketPath: server.socketPath, connections: 1, ...shape, mix: { partitions: 1 }, seed: 7 });
    const result = await load.result();
    t.equal(result.endedBy, 'error');
    t.match(result.errors[0]?.message, /sbtest.parts_c1 holds ".*", not "p0 empty, p1 empty; indexes k" as the prepared dataset made it; prepare the dataset again/);
  });

  await top.test('the check catches what no crash may do', async (t) => {
    // A ledger that says where each table stands now: a clean stop after a short load.
    await prepare(2);
    const result = await (async () => {
      const load = runBuiltinLoad({ socketPath: server.socketPath, connections: 2, ...shape, mix: { churn: 2, alter: 1, partitions: 1, bulk: 1 }, seed: 8 });
      await sleep(3000);
      return load.stop();
    })();
    const ledger = result.lifecycle!;
    t.same((await withConnection(server, (c) => checkLifecycle(c, ledger))).violations, [], 'holds before tampering');
    const lastOf = (table: string) => ledger.tables.find((x) => x.table === table)!.history.at(-1)!;
    const existing = (prefix: string) => ledger.tables.find((x) => x.table.startsWith(prefix) && lastOf(x.table) !== 'absent')?.table;
    const churn = existing('churn_') ?? existing('bulk_'); // a table the load created, so its record starts absent
    const alter = existing('alter_');
    t.ok(churn && alter, `tables to tamper with: ${churn}, ${alter}`);
    if (!churn || !alter) return;
    await withConnection(server, async (c) => {
      await c.query(`DROP TABLE ${churn}`);
      await c.query(`INSERT INTO ${alter} (id, k) VALUES (1000000, 1)`);
    });
    const check = await withConnection(server, (c) => checkLifecycle(c, ledger));
    t.comment(JSON.stringify(check));
    // every table's record starts absent (the client dropped it first), so a drop reads as steps undone
    t.ok(check.lost.some((line) => line.includes(`${churn}:`)) && check.missing > 0, `the dropped ${churn} reads as acknowledged steps undone`);
    t.ok(check.violations.some((line) => line.includes(`${alter}:`) && line.includes('a state none of its steps left')), `the extra row in ${alter} is a violation`);
    await withConnection(server, (c) => c.query(`ALTER TABLE ${alter} ADD INDEX extra (pad)`));
    const indexed = await withConnection(server, (c) => checkLifecycle(c, ledger));
    t.ok(indexed.violations.some((line) => line.includes(`${alter}:`) && line.includes('extra')), 'an index no step added is a violation');
  });

  // Last: a kill under load can leave files of a step in flight (an ALTER's or a partition
  // change's temporary tablespace) in the datadir, where the next prepare's DROP DATABASE fails
  // on them ("Directory not empty").
  let killed: LoadResult | null = null;
  await top.test('a kill under load leaves a legal outcome', async (t) => {
    await prepare(3);
    const load = runBuiltinLoad({ socketPath: server.socketPath, connections: 3, ...shape, mix, seed: 6 });
    await sleep(4000);
    await server.kill();
    killed = await load.result();
    t.equal(killed.endedBy, 'connection-lost', JSON.stringify(killed.errors));
    const outcome = await runtime.start(spec, 60_000);
    t.ok(outcome.ready, 'recovers on the same datadir');
    if (!outcome.ready) return;
    server = outcome.server;
    const restarted = server;
    top.teardown(() => restarted.kill());
    const inFlight = killed.lifecycle!.tables.filter((x) => x.inFlight !== null).length;
    t.comment(`${killed.lifecycle!.acked} steps acknowledged, ${inFlight} in flight at the kill`);
    const check = await withConnection(server, (c) => checkLifecycle(c, killed!.lifecycle!));
    t.same({ missing: check.missing, lost: check.lost, violations: check.violations }, { missing: 0, lost: [], violations: [] });
    t.equal((await withConnection(server, (c) => verifyLedger(c, killed!))).missing, 0, 'no acknowledged commit lost');
  });
});
