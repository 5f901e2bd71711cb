/**
 * Renders one self-contained HTML report from a saved campaign: inline CSS and script, no network
 * (a Content-Security-Policy forbids any fetch and admits only the report's own script by hash),
 * readable from file:// and printable. Pure: results and evidence in, a string out.
 */
import { createHash } from 'node:crypto';
import type { HistoryView } from '../rig/history/history-view.js';
import type { CampaignResults } from '../rig/results/types.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { html, trusted } from './html.js';
import { campaignHeadline } from './outcome.js';
import { bothHalvesSection } from './sections/both-halves.js';
import { cyclesSection } from './sections/cycles.js';
import type { LogSource } from './sections/cycle/log-excerpt.js';
import { environmentSection, statsStrip } from './sections/environment.js';
import { historySection } from './sections/history.js';
import { headlineSection } from './sections/headline.js';
import { matrixSection } from './sections/matrix.js';
import { scenariosSection } from './sections/scenarios.js';
import { STYLES } from './styles.js';

export interface ReportInput {
  results: CampaignResults;
  /** Error logs kept as evidence, by cycle id; cycles without one fall back to their excerpt. */
  logs?: ReadonlyMap<string, LogSource>;
  /** Shown in the footer; omitted when rendering must be reproducible byte for byte. */
  generatedAt?: string;
  /** The run held against the runs filed before it (`rig report --history`); no section without. */
  history?: HistoryView;
}

function contentSecurityPolicy(): string {
  const scriptHash = createHash('sha256').update(CLIENT_SCRIPT).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
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
${headlineSection(results)}
${statsStrip(results)}
<nav class="toc"><a href="#matrix">Matrix</a>${input.history ? html`<a href="#history">Since earlier runs</a>` : null}${results.perf ? html`<a href="#both-halves">Safety and benefit</a>` : null}<a href="#scenarios">Scenarios</a><a href="#cycles">Cycles</a><a href="#environment">Environment</a></nav>
${matrixSection(results)}
${historySection(input.history)}
${bothHalvesSection(results)}
${scenariosSection(results)}
${cyclesSection(results, input.logs ?? new Map())}
${environmentSection(results)}
<footer>powercut-rig ${results.environment.rigVersion}: rendered from results.json alone${input.generatedAt ? ` on ${input.generatedAt}` : ''}. Verdicts come from the disk's record of every write and the rig's own page scans; error-log lines are extra evidence.</footer>
</main><script>${trusted(CLIENT_SCRIPT)}</script></body></html>
`;
  return page.value;
}
