/**
 * The data invariants on a real mariadbd: a dataset after real write transactions holds them all;
 * a missing id, an extra id, a history row without its ledger seq, and a ledger row without its
 * history are each reported, one line each.
 */
import t from 'tap';
import { checkInvariants } from '../../rig/checks/invariants.js';
import { createRng } from '../../faults/prng.js';
import { prepareDataset } from '../../rig/load/dataset.js';
import { writeTransaction } from '../../rig/load/write-transaction.js';
import { closeQuietly, connectToServer } from '../../rig/runtime/local.js';
import { initializedSpec, startServer } from '../fixtures/local-server.js';

t.test('holds after real transactions, and names each broken invariant', async (t) => {
  const server = await startServer(t, await initializedSpec(t));
  const shape = { tables: 2, rows: 50 };
  await prepareDataset({ socketPath: server.socketPath }, { ...shape, seed: 3 });
  const connection = await connectToServer({ socketPath: server.socketPath, database: 'sbtest' });
  t.teardown(() => closeQuietly(connection));
  const rng = createRng(9);
  for (const client of [1, 2]) {
    await connection.query('INSERT INTO rig_ledger (client, seq) VALUES (?, 0)', [client]);
    for (let seq = 1; seq <= 20; seq++) await writeTransaction(connection, client, seq, shape, rng);
  }
  const input = { ...shape, ledger: true };
  t.same(await checkInvariants(connection, input), { checked: true, violations: [] }, '40 transactions later, every invariant holds');

  await connection.query('DELETE FROM sbtest1 WHERE id = 7');
  await connection.query("INSERT INTO sbtest2 (id, k, c, pad) VALUES (51, 1, 'x', 'y')");
  await connection.query('INSERT INTO rig_history (client, seq) VALUES (1, 21)');
  await connection.query('UPDATE rig_ledger SET seq = 22 WHERE client = 2');
  await connection.query('INSERT INTO rig_history (client, seq) VALUES (3, 1)');
  const { violations } = await checkInvariants(connection, input);
  t.same(violations, [
    'sbtest.sbtest1: 49 rows with ids 1..50, expected 50 rows with ids 1..50',
    'sbtest.sbtest2: 51 rows with ids 1..51, expected 50 rows with ids 1..50',
    'client 1: ledger seq 20, history rows 21 with seqs 1..21',
    'client 2: ledger seq 22, history rows 20 with seqs 1..20',
    'client 3: 1 history rows but no ledger row',
  ]);
  const withoutLedger = await checkInvariants(connection, { ...shape, ledger: false });
  t.equal(withoutLedger.violations.length, 2, 'a load without a ledger has only the table invariants checked');
});
