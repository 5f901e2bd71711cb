/**
 * Verifies every live page of a datadir: the system tablespace (minus its doublewrite area,
 * whose pages are copies of other pages and so carry other page numbers), undo tablespaces and
 * every *.ibd. MySQL's #ib_*.dblwr files are doublewrite copies, read by readDoublewrite instead.
 * A tablespace whose page 0 holds only zeros (created moments before a cut, page 0 not yet
 * written) is verified in the system tablespace's format (scan-tablespace.ts).
 */
import { stat } from 'node:fs/promises';
import { badInput } from '../errors.js';
import { inDoublewriteArea, type DoublewriteArea } from './doublewrite-area.js';
import { readSystemDoublewriteArea } from './system-tablespace.js';
import type { PageVerdicts } from './page-verdicts.js';
import { scanTablespace, type InvalidPage, type TablespaceScan } from './scan-tablespace.js';
import { listTablespaceFiles, type TablespaceFile } from './tablespace-files.js';

export interface DatadirScan {
  datadir: string;
  files: TablespaceScan[];
  pages: number;
  invalid: InvalidPage[];
  /** The system tablespace's doublewrite blocks, left out of the live-page check. */
  doublewriteArea: DoublewriteArea | null;
  elapsedMs: number;
}

/**
 * `verdicts`: remembered from earlier scans of crash images of the same datadir (explore's states);
 * `listed`: the datadir's tablespace files, where the caller has listed them already.
 */
export async function scanDatadir(datadir: string, verdicts?: PageVerdicts, listed?: Promise<TablespaceFile[]>): Promise<DatadirScan> {
  const started = Date.now();
  await requireDirectory(datadir);
  const all = await (listed ?? listTablespaceFiles(datadir));
  const system = all.filter((f) => f.kind === 'system');
  const others = all.filter((f) => f.kind === 'undo' || f.kind === 'table');
  const doublewriteArea = system[0] ? await readSystemDoublewriteArea(system[0].path) : null;
  const files = [...(await scanSystemFiles(system, doublewriteArea, verdicts))];
  // a file whose page 0 holds only zeros is verified in the format the server gave its system tablespace
  const own = files[0] && !files[0].formatAssumed && !files[0].blankPage0 ? { blankPage0Format: files[0].format } : {};
  files.push(...(await inParallel(others, FILES_AT_ONCE, (f) => scanTablespace(f.path, { rel: f.rel, ...own, ...(verdicts ? { verdicts } : {}) }))));
  const invalid = files.flatMap((f) => f.invalid);
  const pages = files.reduce((n, f) => n + f.pages, 0);
  return { datadir, files, pages, invalid, doublewriteArea, elapsedMs: Date.now() - started };
}

/** Files read at once: each waits on the disk for its reads, and their waits overlap. */
const FILES_AT_ONCE = 4;

/** `work` on every item, at most `n` at once; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}

async function requireDirectory(datadir: string): Promise<void> {
  const info = await stat(datadir).catch(() => null);
  if (!info?.isDirectory()) throw badInput(`${datadir} is not a directory: give the server's datadir`);
}

/** ibdata1, ibdata2, ... form one page sequence; only ibdata1's page 0 has the flags. */
async function scanSystemFiles(system: TablespaceFile[], area: DoublewriteArea | null, verdicts?: PageVerdicts): Promise<TablespaceScan[]> {
  const scans: TablespaceScan[] = [];
  let firstPage = 0;
  for (const f of system) {
    const first = scans[0];
    const scan = await scanTablespace(f.path, {
      rel: f.rel,
      firstPage,
      spaceId: 0,
      ...(first ? { format: first.format } : {}),
      skipPage: (pageNo) => inDoublewriteArea(area, pageNo),
      ...(verdicts ? { verdicts } : {}),
    });
    scans.push(scan);
    firstPage += scan.pages;
  }
  return scans;
}
