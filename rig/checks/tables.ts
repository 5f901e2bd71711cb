/**
 * CHECK TABLE on every base table of the test schema, one at a time so one failure hides none of
 * the others. A server that dies during a check (InnoDB may crash on a corrupt page) ends the
 * checks: `lost` says why; a lost connection is no complaint about a table, so `failed` holds only
 * what the server said about the tables it checked, and what the loss means is the caller's call.
 */
import type { Connection } from 'mysql2/promise';
import { DEFAULT_SCHEMA } from '../load/dataset.js';
import { isConnectionLost } from '../load/load-errors.js';

export interface TablesCheck {
  tables: number;
  failed: string[]; // one line per table: "schema.table: why"
  serverLost: boolean;
  lost?: string; // when serverLost: the error that ended the checks
}

type CheckRow = { Table: string; Op: string; Msg_type: string; Msg_text: string };

async function listTables(connection: Connection, schema: string): Promise<string[]> {
  const [rows] = await connection.query(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
    [schema],
  );
  return (rows as Array<{ name: string }>).map((r) => r.name);
}

/** Null when the table checked OK, else the server's complaint. */
async function checkOne(connection: Connection, schema: string, table: string): Promise<string | null> {
  const [rows] = await connection.query(`CHECK TABLE \`${schema}\`.\`${table}\``);
  const messages = rows as CheckRow[];
  const last = messages.at(-1);
  if (last && last.Msg_type === 'status' && last.Msg_text === 'OK') return null;
  return messages.map((m) => `${m.Msg_type}: ${m.Msg_text}`).join('; ') || 'no result';
}

export async function checkTables(connection: Connection, schema = DEFAULT_SCHEMA): Promise<TablesCheck> {
  const tables = await listTables(connection, schema);
  const failed: string[] = [];
  for (const table of tables) {
    try {
      const complaint = await checkOne(connection, schema, table);
      if (complaint) failed.push(`${schema}.${table}: ${complaint}`);
    } catch (error) {
      const message = `${schema}.${table}: ${(error as Error).message}`;
      if (isConnectionLost(error)) return { tables: tables.length, failed, serverLost: true, lost: message };
      failed.push(message);
    }
  }
  return { tables: tables.length, failed, serverLost: false };
}
