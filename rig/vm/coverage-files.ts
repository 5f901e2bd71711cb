/**
 * Node's own V8 coverage files (NODE_V8_COVERAGE), turned into the ones tap's process tracker
 * writes: the same format (c8's: `result`, one entry per script, and `source-map-cache`), keeping
 * only the scripts the tracker would have kept under the settings tap gave it in the environment.
 * A script is a file: URL; one whose path (or a source its map names) matches the tracker's
 * exclusion is dropped; when tap names the files to cover, only those are kept; otherwise one
 * matching the coverage exclusion (node_modules unless tap says otherwise) or named among the
 * files not to cover is dropped.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CoverageFilter {
  exclude: RegExp | undefined;
  coverExclude: RegExp;
  coverFiles: string[];
  uncoveredFiles: string[];
}

interface ScriptCoverage {
  url: string;
}

interface SourceMapEntry {
  data?: { sources?: string[] };
}

interface CoverageFile {
  result: ScriptCoverage[];
  'source-map-cache'?: Record<string, SourceMapEntry>;
  [key: string]: unknown;
}

const NODE_MODULES = /[\\/]node_modules[\\/]/;

/** A `/source/flags` value as tap writes a RegExp into the environment; anything else: none. */
function regexOf(value: string | undefined): RegExp | undefined {
  const parsed = value?.match(/^\/(.*)\/([a-z]*)$/);
  if (!parsed) return undefined;
  try {
    return new RegExp(parsed[1]!, parsed[2]);
  } catch {
    return undefined;
  }
}

const listOf = (value: string | undefined): string[] => (value ?? '').split('\n').filter((f) => f.trim() !== '');

export function coverageFilter(env: NodeJS.ProcessEnv): CoverageFilter {
  return {
    exclude: regexOf(env._TAPJS_PROCESSINFO_EXCLUDE_),
    coverExclude: regexOf(env._TAPJS_PROCESSINFO_COV_EXCLUDE_) ?? NODE_MODULES,
    coverFiles: listOf(env._TAPJS_PROCESSINFO_COV_FILES_),
    uncoveredFiles: listOf(env._TAPJS_PROCESSINFO_COV_EXCLUDE_FILES_),
  };
}

const pathOf = (url: string): string => (url.startsWith('file:') ? fileURLToPath(url) : url);

/** Whether the tracker keeps the coverage of the script at `url`, whose map names `sources`. */
export function covered(filter: CoverageFilter, url: string, sources: string[] = []): boolean {
  if (!url.startsWith('file:')) return false;
  const files = [fileURLToPath(url), ...sources.map(pathOf)];
  if (filter.exclude && files.some((f) => filter.exclude!.test(f))) return false;
  if (filter.coverFiles.length) return files.some((f) => filter.coverFiles.includes(f));
  return !files.some((f) => filter.uncoveredFiles.includes(f) || filter.coverExclude.test(f));
}

/** One coverage file with only the scripts the tracker keeps (and their source maps). */
export function keptCoverage(file: CoverageFile, filter: CoverageFilter): CoverageFile {
  const maps = file['source-map-cache'] ?? {};
  const result = file.result.filter((s) => covered(filter, s.url, maps[s.url]?.data?.sources));
  const kept = Object.fromEntries(result.filter((s) => maps[s.url]).map((s) => [s.url, maps[s.url]!]));
  return { ...file, result, 'source-map-cache': kept };
}

/**
 * Writes into `reportDir` what the tracker keeps of each coverage file in `rawDir`, one file each
 * under a fresh name; a file that keeps nothing is not written. Returns how many were written.
 */
export async function convertCoverage(rawDir: string, reportDir: string, filter: CoverageFilter): Promise<number> {
  const names = (await readdir(rawDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  let written = 0;
  for (const name of names) {
    let file: CoverageFile;
    try {
      file = JSON.parse(await readFile(join(rawDir, name), 'utf8')) as CoverageFile;
    } catch {
      continue; // a process killed while writing it: the rest still counts
    }
    if (!Array.isArray(file.result)) continue;
    const kept = keptCoverage(file, filter);
    if (kept.result.length === 0) continue;
    await mkdir(reportDir, { recursive: true });
    await writeFile(join(reportDir, `${randomUUID()}.json`), `${JSON.stringify(kept)}\n`);
    written += 1;
  }
  return written;
}
