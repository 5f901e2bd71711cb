/**
 * Renders a saved run (DIR/results.json and its cycle records) to DIR/index.html (or another
 * file) and the cycles' pages in the folder beside it (index-cycles/ for index.html). The records
 * stream past once: each is rendered to its page and kept only as its brief, so a run of any size
 * renders in bounded memory. The pages are written to a fresh folder that replaces the old one,
 * then the index, atomically; an error leaves the report that was there before. What it replaces
 * must be a report's: a file or folder of that name the rig did not write is refused, untouched.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { badInput, RigError, rigFailure } from '../rig/errors.js';
import type { HistoryView } from '../rig/history/history-view.js';
import { checkAborted } from '../rig/interrupts.js';
import { briefOf, type CycleBrief } from '../rig/results/cycle-brief.js';
import { writeFileAtomic } from '../rig/results/write-atomic.js';
import { cyclePageName, cyclePagesFolder, isCyclePageName, renderCyclePage } from './cycle-page.js';
import { evidenceLog, openRun } from './load-run.js';
import { renderReport } from './render-report.js';

/** `signal` aborted: it stops before the next page and removes its staging folder; what was there stays. */
export async function writeReport(dir: string, outFile?: string, options: { history?: HistoryView; signal?: AbortSignal } = {}): Promise<string> {
  const run = await openRun(dir);
  const target = resolve(outFile ?? join(run.dir, 'index.html'));
  const folder = dirname(target);
  const parent = await stat(folder).catch(() => null);
  if (!parent?.isDirectory()) {
    throw badInput(`cannot write ${target}: ${parent ? `${folder} is a file` : `the folder ${folder} does not exist`}; give --out a file in an existing folder`);
  }
  if ((await stat(target).catch(() => null))?.isDirectory()) {
    throw badInput(`cannot write ${target}: it is a folder; give --out the report's file, e.g. ${join(target, 'index.html')}`);
  }
  const pagesName = cyclePagesFolder(basename(target));
  const pages = join(folder, pagesName);
  await checkReplaceable(target, pages);
  const staging = join(folder, `.${pagesName}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const generatedAt = new Date().toISOString();
  const { cycles: _file, ...summary } = run.summary;
  const recordsFile = basename(run.recordsFile); // results.json itself for a version-1 run
  const briefs: CycleBrief[] = [];
  try {
    await mkdir(staging);
    for await (const record of run.records()) {
      checkAborted(options.signal);
      const log = await evidenceLog(run.dir, record, pages);
      const page = renderCyclePage({ record, log, campaign: summary.campaign, rigVersion: summary.environment.rigVersion, index: `../${encodeURIComponent(basename(target))}`, generatedAt, recordsFile });
      await writeFile(join(staging, cyclePageName(record.id)), page);
      briefs.push(briefOf(record));
    }
    checkAborted(options.signal);
    await rm(pages, { recursive: true, force: true });
    await rename(staging, pages);
    const index = renderReport({ results: { ...summary, cycles: briefs }, pages: encodeURIComponent(pagesName), generatedAt, history: options.history, recordsFile });
    await writeFileAtomic(target, index);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof RigError) throw error; // bad input found while reading: said as it is
    throw rigFailure(`could not write the report to ${target}: ${(error as Error).message}`, error);
  }
  return target;
}

/** An existing index must be a report page (its title names the rig), an existing pages folder
 * hold cycle pages only: `--out notes.html` never overwrites notes.html or deletes notes-cycles/
 * that someone else wrote. */
async function checkReplaceable(target: string, pages: string): Promise<void> {
  const fix = 'move it, or give --out another file name';
  const index = await stat(target).catch(() => null);
  if (index && !(index.isFile() && (await isReportPage(target)))) {
    throw badInput(`cannot write ${target}: the file is there and is not a report the rig wrote; ${fix}`);
  }
  const info = await stat(pages).catch(() => null);
  if (!info) return;
  const stranger = info.isDirectory() ? (await readdir(pages, { withFileTypes: true })).find((e) => !e.isFile() || !isCyclePageName(e.name)) : undefined;
  if (!info.isDirectory() || stranger) {
    const what = stranger ? `it holds ${stranger.name}, which is no cycle page` : 'it is not a folder';
    throw badInput(`cannot write the cycle pages to ${pages}: ${what}; ${fix}`);
  }
}

/** Whether the file starts as the rig's pages do: its title, in the head, ends with the rig's
 * name. */
async function isReportPage(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(16 * 1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return /\(powercut-rig\)<\/title>/.test(head.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await file.close();
  }
}
