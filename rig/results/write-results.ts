/**
 * Writes a campaign's results folder: cycles.jsonl, results.json and junit.xml, each atomically
 * (results-file.ts), then the HTML report through the renderer the caller passes (reports/
 * renders from the saved files).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { JUNIT_FILE, renderJunit } from './junit.js';
import { SUMMARY_FILE, writeResultsFiles } from './results-file.js';
import type { CampaignResults } from './types.js';
import { writeFileAtomic } from './write-atomic.js';

/** Renders the HTML report of the results saved in `dir`; returns the report's path. */
export type ReportRenderer = (dir: string) => Promise<string>;

export interface WrittenResults {
  resultsJson: string;
  junitXml: string;
  report: string | null;
}

export async function writeResultsFolder(dir: string, results: CampaignResults, renderReport?: ReportRenderer): Promise<WrittenResults> {
  await mkdir(dir, { recursive: true });
  const resultsJson = join(dir, SUMMARY_FILE);
  const junitXml = join(dir, JUNIT_FILE);
  await writeResultsFiles(dir, results);
  await writeFileAtomic(junitXml, renderJunit(results));
  const report = renderReport ? await renderReport(dir) : null;
  return { resultsJson, junitXml, report };
}
