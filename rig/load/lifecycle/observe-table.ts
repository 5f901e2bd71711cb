/**
 * A lifecycle table as a server holds it (after recovery, or before a load adopts a table the
 * prepared image made), in the form of the load's model (table-state.ts): absent, or each part's rows and the secondary indexes.
 * Rows whose ids are not contiguous read as "N rows in ids lo..hi", which no model state has. Two
 * things are problems whatever the load did: a secondary index with more or fewer entries than
 * the table has rows, and a table the SQL layer and InnoDB's dictionary disagree about (a
 * partition or table one of them holds and the other does not). Queries that fail throw.
 */
import type { Connection } from 'mysql2/promise';
import { ABSENT, idsText, partText, tableSignature } from './table-state.js';

export interface ObservedTable {
  signature: string;
  problems: string[];
}

type Row = Record<string, string | number | null>;
const num = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

async function rows(connection: Connection, sql: string, values: unknown[] = []): Promise<Row[]> {
  const [result] = await connection.query(sql, values);
  return result as Row[];
}

/** The view of InnoDB's dictionary, found once per connection: MariaDB's INNODB_SYS_TABLES, MySQL 8.0 and later's INNODB_TABLES. */
const views = new WeakMap<Connection, Promise<string>>();
function dictionaryView(connection: Connection): Promise<string> {
  if (!views.has(connection)) {
    views.set(connection, rows(connection, "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'INNODB_SYS_TABLES'")
      .then((found) => (found.length ? 'INNODB_SYS_TABLES' : 'INNODB_TABLES')));
  }
  return views.get(connection)!;
}

/** The names InnoDB's dictionary holds for the table (MySQL writes #p# in lower case): schema/table, or schema/table#P#part per partition. */
async function innodbNames(connection: Connection, schema: string, table: string): Promise<string[]> {
  const name = `${schema}/${table}`;
  const like = `${name.replace(/[\\_%]/g, (c) => `\\${c}`)}#P#%`;
  const view = await dictionaryView(connection);
  const found = await rows(connection, `SELECT NAME AS name FROM information_schema.${view} WHERE NAME = ? OR NAME LIKE ?`, [name, like]);
  return found.map((r) => String(r.name).replace(/#p#/g, '#P#')).sort();
}

/** Partition names in order ('' for a table without partitions); [] when the SQL layer has no such table. */
async function partNames(connection: Connection, schema: string, table: string): Promise<string[]> {
  const exists = await rows(connection, 'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [schema, table]);
  if (exists.length === 0) return [];
  const parts = await rows(
    connection,
    'SELECT PARTITION_NAME AS name FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY PARTITION_ORDINAL_POSITION',
    [schema, table],
  );
  return parts.length ? parts.map((p) => (p.name === null ? '' : String(p.name))) : [''];
}

async function readPart(connection: Connection, ref: string, part: string): Promise<{ text: string; rows: number }> {
  const [r] = await rows(connection, `SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM ${ref}${part ? ` PARTITION (\`${part}\`)` : ''}`);
  const [n, lo, hi] = [num(r!.n) ?? 0, num(r!.lo), num(r!.hi)];
  const contiguous = n === 0 || (lo !== null && hi !== null && hi - lo + 1 === n);
  return { text: partText(part, contiguous ? idsText(n, lo ?? 1) : `${n} rows in ids ${lo}..${hi}`), rows: n };
}

export async function observeTable(connection: Connection, schema: string, table: string): Promise<ObservedTable> {
  const ref = `\`${schema}\`.\`${table}\``;
  const [parts, innodb] = [await partNames(connection, schema, table), await innodbNames(connection, schema, table)];
  const expected = parts.map((p) => (p ? `${schema}/${table}#P#${p}` : `${schema}/${table}`)).sort();
  const problems: string[] = [];
  if (expected.join() !== innodb.join()) {
    problems.push(`the table definition names ${expected.length ? expected.join(', ') : 'nothing'}, InnoDB's dictionary holds ${innodb.length ? innodb.join(', ') : 'nothing'}`);
  }
  if (parts.length === 0) return { signature: ABSENT, problems };
  const texts: string[] = [];
  let total = 0;
  for (const part of parts) {
    const p = await readPart(connection, ref, part);
    texts.push(p.text);
    total += p.rows;
  }
  const indexRows = await rows(
    connection,
    "SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'",
    [schema, table],
  );
  const indexes = indexRows.map((r) => String(r.name)).sort();
  for (const index of indexes) {
    const [r] = await rows(connection, `SELECT COUNT(*) AS n FROM ${ref} FORCE INDEX (\`${index}\`)`);
    if (num(r!.n) !== total) problems.push(`index ${index} holds ${num(r!.n)} entries for ${total} rows`);
  }
  return { signature: tableSignature(texts, indexes), problems };
}
