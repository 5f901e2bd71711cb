/**
 * Reads a saved run for the report: DIR/results.json and the error logs its evidence folders hold.
 * Never touches anything outside DIR; a missing or malformed results.json is bad input.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CampaignResults, CycleRecord } from '../rig/results/types.js';
import { badInput } from '../rig/errors.js';
import type { LogSource } from './sections/cycle/log-excerpt.js';

export interface SavedRun {
  dir: string;
  results: CampaignResults;
  logs: Map<string, LogSource>;
}

const MAX_LOG_BYTES = 4 * 1024 * 1024;

export async function loadRun(dir: string): Promise<SavedRun> {
  const folder = resolve(dir);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw badInput(`${dir} is not a folder: give the folder a campaign wrote (it holds results.json)`);
  const file = join(folder, 'results.json');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) throw badInput(`${file} not found: give the folder a campaign wrote (it holds results.json)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badInput(`${file} is not valid JSON (${(error as Error).message}); rerun the campaign with --resume to rewrite it`, error);
  }
  const problem = shapeProblem(parsed);
  if (problem) throw badInput(`${file} is not a campaign's results: ${problem}`);
  const results = parsed as CampaignResults;
  return { dir: folder, results, logs: await readEvidenceLogs(folder, results.cycles) };
}

/** The first thing the renderer relies on that the file lacks, or null. */
export function shapeProblem(value: unknown): string | null {
  const r = value as Partial<CampaignResults> | null;
  if (typeof r !== 'object' || r === null) return 'not an object';
  if (r.version !== 1) return `version is ${JSON.stringify(r.version)}, expected 1`;
  if (typeof r.campaign !== 'string') return 'campaign (its name) is missing';
  if (!Array.isArray(r.scenarios)) return 'scenarios is not a list';
  if (!Array.isArray(r.cycles)) return 'cycles is not a list';
  if (typeof r.environment !== 'object' || r.environment === null) return 'environment is missing';
  for (const s of r.scenarios) {
    if (!s?.settings?.server || !s.settings.disk) return `scenario ${JSON.stringify(s?.name)} has no server/disk settings`;
  }
  for (const c of r.cycles) {
    const missing = ['id', 'verdict', 'settings', 'tornPagesBefore', 'pendingWrites', 'errorLog', 'throughput', 'ledger', 'attribution', 'checkTable', 'pagesAfter', 'timings']
      .find((key) => (c as unknown as Record<string, unknown>)?.[key] === undefined);
    if (missing) return `cycle ${JSON.stringify(c?.id)} has no ${missing}`;
  }
  return null;
}

/** A path named in results.json, kept inside the results folder. */
function inside(folder: string, path: string): string | null {
  const full = resolve(folder, path);
  const rel = relative(folder, full);
  return rel.startsWith('..') || isAbsolute(rel) ? null : full;
}

async function readEvidenceLogs(folder: string, cycles: CycleRecord[]): Promise<Map<string, LogSource>> {
  const logs = new Map<string, LogSource>();
  for (const cycle of cycles) {
    const dirs = [cycle.evidenceDir, join('cycles', cycle.id)].filter((d): d is string => typeof d === 'string');
    for (const d of dirs) {
      const path = inside(folder, join(d, 'error.log'));
      const info = path ? await stat(path).catch(() => null) : null;
      if (!path || !info?.isFile() || info.size > MAX_LOG_BYTES) continue;
      const rel = relative(folder, path);
      logs.set(cycle.id, { text: await readFile(path, 'utf8'), origin: `${rel} (kept evidence)`, href: rel.split(sep).map(encodeURIComponent).join('/') });
      break;
    }
  }
  return logs;
}
