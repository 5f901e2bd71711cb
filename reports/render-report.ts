/**
 * Renders a saved campaign's report index: one self-contained HTML file (inline CSS and script,
 * no network: a Content-Security-Policy forbids any fetch and admits only the report's own script
 * by hash), readable from file:// and printable. It holds the headline, matrix, scenarios,
 * history, the problem cycles and a filterable list of every cycle, each linked to its own page
 * (cycle-page.ts); it reads only the cycles' briefs, so it stays small whatever their number.
 * Pure: a summary and briefs in, a string out.
 */
import type { HistoryView } from '../rig/history/history-view.js';
import type { BriefedResults } from '../rig/results/cycle-brief.js';
import { CLIENT_SCRIPT, contentSecurityPolicy } from './client-script.js';
import { html, trusted } from './html.js';
import { campaignHeadline } from './outcome.js';
import { bothHalvesSection } from './sections/both-halves.js';
import { cyclesSection } from './sections/cycles.js';
import { environmentSection, statsStrip } from './sections/environment.js';
import { evidenceSection } from './sections/evidence.js';
import { historySection } from './sections/history.js';
import { headlineSection } from './sections/headline.js';
import { matrixSection } from './sections/matrix.js';
import { scenariosSection } from './sections/scenarios.js';
import { STYLES } from './styles.js';

export interface ReportInput {
  results: BriefedResults;
  /** The folder of the cycles' pages, relative to the index. */
  pages: string;
  /** Shown in the footer; omitted when rendering must be reproducible byte for byte. */
  generatedAt?: string;
  /** The run held against the runs filed before it (`rig report --history`); no section without. */
  history?: HistoryView;
  /** The file the records were read from: cycles.jsonl unless named (results.json of version 1). */
  recordsFile?: string;
}

/** What the index was rendered from, as the footer says it. */
function recordsNamed(recordsFile = 'cycles.jsonl'): string {
  return recordsFile === 'results.json' ? 'results.json' : `results.json and ${recordsFile}`;
}

export function renderReport(input: ReportInput): string {
  const { results } = input;
  const headline = campaignHeadline(results);
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${headline.label}: ${results.campaign} (powercut-rig)</title>
<style>${trusted(STYLES)}</style></head>
<body><main>
${headlineSection(results, input.pages)}
${statsStrip(results)}
<nav class="toc"><a href="#matrix">Matrix</a>${input.history ? html`<a href="#history">Since earlier runs</a>` : null}${results.perf ? html`<a href="#both-halves">Safety and benefit</a>` : null}<a href="#scenarios">Scenarios</a><a href="#cycles">Cycles</a><a href="#evidence">Evidence</a><a href="#environment">Environment</a></nav>
${matrixSection(results)}
${historySection(input.history)}
${bothHalvesSection(results)}
${scenariosSection(results)}
${cyclesSection(results, input.pages)}
${evidenceSection(results)}
${environmentSection(results)}
<footer>powercut-rig ${results.environment.rigVersion}: rendered from ${recordsNamed(input.recordsFile)} alone${input.generatedAt ? ` on ${input.generatedAt}` : ''}. Verdicts come from the disk's record of every write and the rig's own page scans; error-log lines are extra evidence.</footer>
</main><script>${trusted(CLIENT_SCRIPT)}</script></body></html>
`;
  return page.value;
}
