/**
 * Ledger check after recovery: every commit the load saw acknowledged must be in rig_ledger. A
 * client commits one transaction at a time, and its ledger row holds its last committed seq:
 * - stored below the acknowledged seq: that many acknowledged commits are missing;
 * - stored one above: legal, the client's unacknowledged commit landed (the cut swallowed its OK);
 * - stored two or more above: no client commits that way; such rows are returned in
 *   `unexplained`, which the recovery checks report as a broken data invariant. A crash state
 *   rebuilt at a recorded moment (rig explore) gives the seq each client had begun by then: its
 *   acknowledgement may have reached the client after that moment, so up to that seq is legal.
 * A row of a client with no acknowledged commit is legal and not looked at (it joined the ledger
 * just before the cut); the invariants still hold its history rows to its seq.
 */
import type { Connection } from 'mysql2/promise';
import { DEFAULT_SCHEMA, LEDGER_TABLE } from '../load/dataset.js';

export interface ClientLedger {
  client: number;
  acked: number; // highest acknowledged seq
  stored: number | null; // seq found after recovery; null when the row itself is gone
  missing: number;
}

export interface LedgerCheck {
  checked: true;
  acked: number; // commits acknowledged during the load
  missing: number; // acknowledged commits not found after recovery
  clients: ClientLedger[];
  unexplained: string[]; // stored rows ahead of what the clients could have committed
}

export interface AckedLedger {
  acked: ReadonlyMap<number, number>;
  ackedCount: number;
  /** Per client, the highest seq whose transaction had begun (a crash state's upper bound);
   * without it a client may store one above its acknowledged seq. */
  begun?: ReadonlyMap<number, number>;
}

async function storedSeqs(connection: Connection, schema: string): Promise<Map<number, number>> {
  const [rows] = await connection.query(`SELECT client, seq FROM ${schema}.${LEDGER_TABLE}`);
  return new Map((rows as Array<{ client: number; seq: string }>).map((r) => [r.client, Number(r.seq)]));
}

export async function verifyLedger(
  connection: Connection,
  load: AckedLedger,
  schema = DEFAULT_SCHEMA,
): Promise<LedgerCheck> {
  const stored = await storedSeqs(connection, schema);
  const clients: ClientLedger[] = [];
  const unexplained: string[] = [];
  for (const [client, acked] of [...load.acked].sort((a, b) => a[0] - b[0])) {
    const seq = stored.get(client) ?? null;
    clients.push({ client, acked, stored: seq, missing: Math.max(0, acked - (seq ?? 0)) });
    const most = Math.max(acked + 1, load.begun?.get(client) ?? 0);
    if (seq !== null && seq > most) unexplained.push(`client ${client}: stored seq ${seq}, acknowledged ${acked}${load.begun ? `, begun ${most}` : ''}`);
  }
  const missing = clients.reduce((sum, c) => sum + c.missing, 0);
  return { checked: true, acked: load.ackedCount, missing, clients, unexplained };
}
