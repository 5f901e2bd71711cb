/**
 * One cycle's own page, beside the report's index: its whole record (torn-page table, error log,
 * pending writes, charts, the repro command), loaded only when a reader opens it. Self-contained
 * as the index is: the same styles, script and Content-Security-Policy; links lead back to the
 * index and across to other cycles' pages.
 */
import { anchorId, html, trusted } from './html.js';
import type { CycleRecord } from '../rig/results/types.js';
import { CLIENT_SCRIPT, contentSecurityPolicy } from './client-script.js';
import { cycleDetails } from './sections/cycle/cycle-details.js';
import type { LogSource } from './sections/cycle/log-excerpt.js';
import { VERDICT_LABELS } from './format.js';
import { STYLES } from './styles.js';

/** The file name of a cycle's page, in the pages folder: safe whatever the id holds. */
export function cyclePageName(id: string): string {
  return `${anchorId('cycle', id)}.html`;
}

/** Whether a file name is one cyclePageName gives. */
export function isCyclePageName(name: string): boolean {
  return /^cycle-[A-Za-z0-9_.-]+\.html$/.test(name);
}

/** The pages folder of an index file: index.html's is index-cycles. */
export function cyclePagesFolder(indexName: string): string {
  return `${indexName.replace(/\.html?$/i, '')}-cycles`;
}

export interface CyclePageInput {
  record: CycleRecord;
  log: LogSource | null; // its kept error log; links in it are relative to the page
  campaign: string;
  rigVersion: string;
  index: string; // the index's href from the page
  generatedAt?: string;
  recordsFile?: string; // where the record was read: cycles.jsonl unless named
}

export function renderCyclePage(input: CyclePageInput): string {
  const { record, index } = input;
  const links = {
    scenario: (name: string) => `${index}#${anchorId('scenario', name)}`,
    cycle: (id: string) => encodeURIComponent(cyclePageName(id)),
  };
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${record.id}: ${VERDICT_LABELS[record.verdict]} (${input.campaign}, powercut-rig)</title>
<style>${trusted(STYLES)}</style></head>
<body class="cycle-page"><main>
<header class="top"><p class="eyebrow"><a href="${index}">powercut-rig campaign report: ${input.campaign}</a> · <a href="${`${index}#cycles`}">all cycles</a></p>
<h1>${record.explore ? 'State' : 'Cycle'} ${record.id}</h1></header>
${cycleDetails(record, input.log, links)}
<footer>powercut-rig ${input.rigVersion}: rendered from the cycle's record in ${input.recordsFile ?? 'cycles.jsonl'}${input.generatedAt ? ` on ${input.generatedAt}` : ''}.</footer>
</main><script>${trusted(CLIENT_SCRIPT)}</script></body></html>
`;
  return page.value;
}
