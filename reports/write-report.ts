/** Renders DIR/results.json to DIR/index.html (or another file), written atomically. */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { badInput, rigFailure } from '../rig/errors.js';
import type { HistoryView } from '../rig/history/history-view.js';
import { writeFileAtomic } from '../rig/results/write-atomic.js';
import { loadRun } from './load-run.js';
import { renderReport } from './render-report.js';

export async function writeReport(dir: string, outFile?: string, options: { history?: HistoryView } = {}): Promise<string> {
  const run = await loadRun(dir);
  const target = resolve(outFile ?? join(run.dir, 'index.html'));
  if (!(await stat(dirname(target)).catch(() => null))?.isDirectory()) {
    throw badInput(`cannot write ${target}: the folder ${dirname(target)} does not exist; give --out a file in an existing folder`);
  }
  for (const log of run.logs.values()) {
    // evidence links are relative to DIR; a report written elsewhere must point back into DIR
    if (log.href) log.href = relative(dirname(target), join(run.dir, decodeURIComponent(log.href))).split(sep).map(encodeURIComponent).join('/');
  }
  const page = renderReport({ results: run.results, logs: run.logs, generatedAt: new Date().toISOString(), history: options.history });
  try {
    await writeFileAtomic(target, page);
  } catch (error) {
    throw rigFailure(`could not write the report to ${target}: ${(error as Error).message}`, error);
  }
  return target;
}
