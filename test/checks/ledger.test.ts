/**
 * The ledger check's contract, on rows as the server returns them: an acknowledged commit missing
 * is lost; one commit past the acknowledged ones is legal (it landed, but the cut swallowed its
 * OK); more than one past cannot come from a client that commits one transaction at a time, unless
 * a crash state says how many had begun by its moment.
 */
import t from 'tap';
import type { Connection } from 'mysql2/promise';
import { verifyLedger } from '../../rig/checks/ledger.js';

/** A connection whose ledger table holds these (client, seq) rows. */
function ledgerRows(rows: [number, number][]): Connection {
  const query = async () => [rows.map(([client, seq]) => ({ client, seq: String(seq) }))];
  return { query } as unknown as Connection;
}

const acked = (entries: [number, number][]) => ({ acked: new Map(entries), ackedCount: entries.reduce((n, [, s]) => n + s, 0) });

t.test('every acknowledged commit stored: nothing missing, nothing unexplained', async (t) => {
  const check = await verifyLedger(ledgerRows([[1, 40], [2, 35]]), acked([[1, 40], [2, 35]]));
  t.same([check.missing, check.unexplained], [0, []]);
});

t.test('one commit past the acknowledged ones is legal', async (t) => {
  const check = await verifyLedger(ledgerRows([[1, 41], [2, 35]]), acked([[1, 40], [2, 35]]));
  t.same([check.missing, check.unexplained], [0, []]);
  t.same(check.clients[0], { client: 1, acked: 40, stored: 41, missing: 0 });
});

t.test('a ledger row of a client that has no acknowledged commit is legal', async (t) => {
  const check = await verifyLedger(ledgerRows([[1, 40], [3, 0]]), acked([[1, 40]]));
  t.same([check.missing, check.unexplained, check.clients.length], [0, [], 1]);
});

t.test('acknowledged commits missing are counted, a lost row loses them all', async (t) => {
  const check = await verifyLedger(ledgerRows([[1, 37]]), acked([[1, 40], [2, 35]]));
  t.equal(check.missing, 3 + 35);
  t.same(check.clients.map((c) => c.stored), [37, null]);
});

t.test('two or more past the acknowledged ones is unexplained', async (t) => {
  const check = await verifyLedger(ledgerRows([[1, 42], [2, 35]]), acked([[1, 40], [2, 35]]));
  t.same(check.unexplained, ['client 1: stored seq 42, acknowledged 40']);
  t.equal(check.missing, 0);
});

t.test('a crash state bounds the ledger by the transactions begun before its moment', async (t) => {
  // client 1's ack of 41 reached the client after the moment, and 42 began before it: both may be stored
  const begun = { begun: new Map([[1, 42], [2, 35]]) };
  const within = await verifyLedger(ledgerRows([[1, 42], [2, 35]]), { ...acked([[1, 40], [2, 35]]), ...begun });
  t.same([within.missing, within.unexplained], [0, []]);
  const past = await verifyLedger(ledgerRows([[1, 43], [2, 36]]), { ...acked([[1, 40], [2, 35]]), ...begun });
  t.same(past.unexplained, ['client 1: stored seq 43, acknowledged 40, begun 42'], 'more than begun is unexplained; one past the acknowledged stays legal');
});
