/**
 * Data invariants of the write mix after recovery, which CHECK TABLE (structure only) cannot see:
 * - every sbtest table keeps exactly its rows, ids 1..rows (each transaction deletes and
 *   re-inserts one id, so a half-applied transaction shows as a missing or extra id), and its
 *   secondary index k_1 holds as many entries as the table has rows;
 * - with a ledger: each client's history rows are exactly seqs 1..n where n is its ledger row's seq
 *   (the ledger row and the history row are written in the same transaction). That no ledger row
 *   is more than one commit ahead of its acknowledged ones is the ledger check's (ledger.ts).
 * Each broken invariant is one line; a query that fails throws, for the caller to judge.
 */
import type { Connection } from 'mysql2/promise';
import { DEFAULT_SCHEMA, HISTORY_TABLE, LEDGER_TABLE } from '../load/dataset.js';

export interface InvariantsInput {
  tables: number;
  rows: number;
  /** Whether the load kept a ledger (and so the history table). */
  ledger: boolean;
  schema?: string;
}

export interface InvariantsCheck {
  checked: true;
  violations: string[];
}

type Counted = { n: string | number | null; lo: string | number | null; hi: string | number | null };
const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

async function checkTable(connection: Connection, schema: string, table: string, rows: number): Promise<string[]> {
  const [[c]] = (await connection.query(`SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM \`${schema}\`.\`${table}\``)) as unknown as [Counted[]];
  const [[k]] = (await connection.query(`SELECT COUNT(*) AS n FROM \`${schema}\`.\`${table}\` FORCE INDEX (k_1)`)) as unknown as [Counted[]];
  const [n, lo, hi, inIndex] = [num(c!.n), num(c!.lo), num(c!.hi), num(k!.n)];
  const out: string[] = [];
  if (n !== rows || lo !== 1 || hi !== rows) out.push(`${schema}.${table}: ${n} rows with ids ${lo}..${hi}, expected ${rows} rows with ids 1..${rows}`);
  if (inIndex !== n) out.push(`${schema}.${table}: index k_1 holds ${inIndex} entries for ${n} rows`);
  return out;
}

async function checkHistory(connection: Connection, schema: string): Promise<string[]> {
  const [ledgerRows] = await connection.query(`SELECT client, seq FROM \`${schema}\`.${LEDGER_TABLE}`);
  const ledger = new Map((ledgerRows as Array<{ client: number; seq: string | number }>).map((r) => [r.client, Number(r.seq)]));
  const [historyRows] = await connection.query(
    `SELECT client, COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM \`${schema}\`.${HISTORY_TABLE} GROUP BY client`,
  );
  const history = new Map((historyRows as Array<Counted & { client: number }>).map((r) => [r.client, r]));
  const out: string[] = [];
  for (const client of new Set([...ledger.keys(), ...history.keys()])) {
    const seq = ledger.get(client) ?? null;
    const h = history.get(client);
    const [n, lo, hi] = h ? [num(h.n)!, num(h.lo), num(h.hi)] : [0, null, null];
    if (seq === null) out.push(`client ${client}: ${n} history rows but no ledger row`);
    else if (n !== seq || (seq > 0 && (lo !== 1 || hi !== seq))) out.push(`client ${client}: ledger seq ${seq}, history rows ${n} with seqs ${lo ?? '-'}..${hi ?? '-'}`);
  }
  return out;
}

export async function checkInvariants(connection: Connection, input: InvariantsInput): Promise<InvariantsCheck> {
  const schema = input.schema ?? DEFAULT_SCHEMA;
  const violations: string[] = [];
  for (let i = 1; i <= input.tables; i++) violations.push(...(await checkTable(connection, schema, `sbtest${i}`, input.rows)));
  if (input.ledger) violations.push(...(await checkHistory(connection, schema)));
  return { checked: true, violations };
}
