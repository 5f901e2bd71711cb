/**
 * Reads a saved run for the report: DIR/results.json (the summary), the cycle records streamed
 * from cycles.jsonl (or inside results.json of version 1), each checked for what the renderer
 * relies on, and the error log a cycle's evidence folder holds. Never touches anything outside
 * DIR; a missing or malformed file is bad input.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CycleRecord, ResultsSummary } from '../rig/results/types.js';
import { badInput } from '../rig/errors.js';
import { openResults } from '../rig/results/load-results.js';
import type { LogSource } from './sections/cycle/log-excerpt.js';

export interface SavedRun {
  dir: string;
  summary: ResultsSummary;
  /** The file the records are read from: cycles.jsonl, or results.json of version 1. */
  recordsFile: string;
  /** The records in the campaign's order, each checked; read afresh at each call. */
  records(): AsyncGenerator<CycleRecord>;
}

const MAX_LOG_BYTES = 4 * 1024 * 1024;

const RECORD_KEYS = ['id', 'verdict', 'settings', 'tornPagesBefore', 'pendingWrites', 'errorLog', 'throughput', 'ledger', 'attribution', 'checkTable', 'pagesAfter', 'timings'];

export async function openRun(dir: string): Promise<SavedRun> {
  const folder = resolve(dir);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw badInput(`${dir} is not a folder: give the folder a campaign wrote (it holds results.json)`);
  const file = join(folder, 'results.json');
  if (!(await stat(file).catch(() => null))?.isFile()) throw badInput(`${file} not found: give the folder a campaign wrote (it holds results.json)`);
  const opened = await openResults(folder);
  const problem = summaryProblem(opened.summary);
  if (problem) throw badInput(`${file} is not a campaign's results: ${problem}`);
  return {
    dir: folder,
    summary: opened.summary,
    recordsFile: opened.recordsFile,
    records: async function* () {
      for await (const record of opened.records()) {
        const missing = recordProblem(record);
        if (missing) throw badInput(`${file} is not a campaign's results: ${missing}`);
        yield record;
      }
    },
  };
}

/** The first thing the renderer relies on that the summary lacks, or null. */
export function summaryProblem(value: unknown): string | null {
  const r = value as Partial<ResultsSummary> | null;
  if (typeof r !== 'object' || r === null) return 'not an object';
  if (typeof r.campaign !== 'string') return 'campaign (its name) is missing';
  if (!Array.isArray(r.scenarios)) return 'scenarios is not a list';
  if (typeof r.environment !== 'object' || r.environment === null) return 'environment is missing';
  for (const s of r.scenarios) {
    if (!s?.settings?.server || !s.settings.disk) return `scenario ${JSON.stringify(s?.name)} has no server/disk settings`;
  }
  return null;
}

/** The first part of a cycle record the renderer relies on that it lacks, or null. */
export function recordProblem(c: CycleRecord): string | null {
  const missing = RECORD_KEYS.find((key) => (c as unknown as Record<string, unknown>)?.[key] === undefined);
  return missing ? `cycle ${JSON.stringify(c?.id)} has no ${missing}` : null;
}

/** A path named in a record, kept inside the results folder. */
function inside(folder: string, path: string): string | null {
  const full = resolve(folder, path);
  const rel = relative(folder, full);
  return rel.startsWith('..') || isAbsolute(rel) ? null : full;
}

/** The error log kept in the cycle's evidence folder (at most 4 MiB), or null; its link is
 * relative to `from`, the folder of the page that shows it. */
export async function evidenceLog(folder: string, cycle: CycleRecord, from: string): Promise<LogSource | null> {
  const dirs = [cycle.evidenceDir, join('cycles', cycle.id)].filter((d): d is string => typeof d === 'string');
  for (const d of dirs) {
    const path = inside(folder, join(d, 'error.log'));
    const info = path ? await stat(path).catch(() => null) : null;
    if (!path || !info?.isFile() || info.size > MAX_LOG_BYTES) continue;
    const href = relative(from, path).split(sep).map(encodeURIComponent).join('/');
    return { text: await readFile(path, 'utf8'), origin: `${relative(folder, path)} (kept evidence)`, href };
  }
  return null;
}
