/**
 * The logical state of a lifecycle table, as the load's model knows it and as the check reads it
 * back after recovery: absent, or its parts (the table itself, or each partition) each holding the
 * contiguous ids first..first+rows-1, and its secondary indexes. Two states are the same exactly
 * when their signatures are: the ledger of lifecycle steps keeps signatures only.
 */

export interface Part {
  name: string; // partition name; '' for a table without partitions
  first: number; // the first id the part's rows start from
  rows: number;
}

export interface TableState {
  parts: Part[];
  indexes: string[]; // secondary index names, sorted
}

/** null: the table does not exist. */
export type ObjectState = TableState | null;

export const ABSENT = 'absent';

/** "p1 ids 1001..1200" / "empty" */
export function partText(name: string, ids: string): string {
  return name ? `${name} ${ids}` : ids;
}

export function idsText(rows: number, first: number): string {
  return rows === 0 ? 'empty' : `ids ${first}..${first + rows - 1}`;
}

/** The state's signature: "ids 1..300; indexes k", "p0 empty, p2 ids 2001..2100; indexes k", "absent". */
export function signature(state: ObjectState): string {
  if (state === null) return ABSENT;
  return tableSignature(state.parts.map((p) => partText(p.name, idsText(p.rows, p.first))), state.indexes);
}

export function tableSignature(parts: string[], indexes: string[]): string {
  return `${parts.join(', ')}; indexes ${indexes.length ? [...indexes].sort().join(',') : 'none'}`;
}

/** An unpartitioned table of rows 1..rows. */
export function plainTable(rows: number, indexes: string[]): TableState {
  return { parts: [{ name: '', first: 1, rows }], indexes: [...indexes].sort() };
}

/** The rows of a table, over all its parts. */
export function totalRows(state: TableState): number {
  return state.parts.reduce((sum, p) => sum + p.rows, 0);
}

/** The same state with one part's rows replaced. */
export function withPartRows(state: TableState, name: string, rows: number): TableState {
  return { ...state, parts: state.parts.map((p) => (p.name === name ? { ...p, rows } : p)) };
}
