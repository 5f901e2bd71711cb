/**
 * Finds a datadir's tablespace files: the system tablespace (ibdata1, ibdata2, ... one page
 * sequence), undo tablespaces (MariaDB undo001, MySQL undo_001 / *.ibu), file-per-table *.ibd
 * (one level down, plus mysql.ibd at the top in MySQL 8), and MySQL 8.0.20+ doublewrite files
 * (#ib_<pagesize>_<n>.dblwr), which hold copies, not live pages. The temporary tablespace is
 * left out: the server recreates it at every start.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type TablespaceKind = 'system' | 'undo' | 'table' | 'dblwr';

export interface TablespaceFile {
  /** Relative to the datadir, the way the server names it: ./ibdata1, ./db/t.ibd */
  rel: string;
  path: string;
  kind: TablespaceKind;
  size: number;
}

const SKIPPED_DIRS = new Set(['#innodb_temp', '#innodb_redo', 'lost+found']);

export function classifyTablespace(name: string, topLevel: boolean): TablespaceKind | null {
  if (name.endsWith('.ibd')) return 'table';
  if (!topLevel) return null;
  if (/^ibdata\d+$/.test(name)) return 'system';
  if (/^undo_?\d+$/.test(name) || name.endsWith('.ibu')) return 'undo';
  if (/^#ib_\d+_\d+\.dblwr$/.test(name)) return 'dblwr';
  return null;
}

/** The datadir's tablespace files, each directory's files stat'ed at once (a fresh mount reads each inode through the disk). */
export async function listTablespaceFiles(datadir: string): Promise<TablespaceFile[]> {
  const entries = await readdir(datadir, { withFileTypes: true });
  const dirs = entries.filter((e) => e.isDirectory() && !SKIPPED_DIRS.has(e.name));
  const found = await Promise.all([
    collect(datadir, '.', true, entries),
    ...dirs.map(async (d) => collect(join(datadir, d.name), `./${d.name}`, false, await readdir(join(datadir, d.name), { withFileTypes: true }))),
  ]);
  return found.flat().sort(compareFiles);
}

function collect(dir: string, relDir: string, topLevel: boolean, entries: Dirent[]): Promise<TablespaceFile[]> {
  const files = entries.flatMap((entry) => {
    const kind = entry.isFile() ? classifyTablespace(entry.name, topLevel) : null;
    return kind ? [{ rel: `${relDir}/${entry.name}`, path: join(dir, entry.name), kind }] : [];
  });
  return Promise.all(files.map(async (f) => ({ ...f, size: (await stat(f.path)).size })));
}

const KIND_ORDER: Record<TablespaceKind, number> = { system: 0, undo: 1, table: 2, dblwr: 3 };

/** System files first in numeric order (ibdata2 continues ibdata1's page numbers), then by name. */
function compareFiles(a: TablespaceFile, b: TablespaceFile): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  const na = Number(a.rel.match(/(\d+)$/)?.[1] ?? NaN);
  const nb = Number(b.rel.match(/(\d+)$/)?.[1] ?? NaN);
  if (a.kind === 'system' && na !== nb) return na - nb;
  return a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0;
}
