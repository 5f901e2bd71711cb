/** Where and how the campaign ran: enough to rerun it and to judge whether it applies. */
import { cutScenarios } from '../cut-scenarios.js';
import type { BriefedResults } from '../../rig/results/cycle-brief.js';
import { formatIso, formatMs } from '../format.js';
import { html, type Html } from '../html.js';
import { judgedUnit } from '../../rig/results/judged-count.js';

function durationMs(results: BriefedResults): number | null {
  if (!results.finishedAt) return null;
  const ms = Date.parse(results.finishedAt) - Date.parse(results.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function seedsText(results: BriefedResults): string {
  const seeds = results.cycles.map((c) => c.seed);
  if (seeds.length === 0) return `campaign ${results.seed}`;
  const shown = seeds.slice(0, 12).join(', ');
  return `campaign ${results.seed}; cycles ${shown}${seeds.length > 12 ? `, … (${seeds.length} in all, each on its cycle)` : ''}`;
}

export function environmentSection(results: BriefedResults): Html {
  const env = results.environment;
  const duration = durationMs(results);
  const filesystems = [...new Set(results.scenarios.map((s) => s.settings.disk.fs))].join(', ');
  const runtimes = [...new Set(results.scenarios.map((s) => (s.settings.runtime === 'docker' ? `docker (${s.settings.image ?? '?'})` : 'local')))].join(', ');
  const rows: [string, Html | string][] = [
    ['Server', `${env.server} ${env.serverVersion}`],
    ['Runtime', runtimes],
    ['Kernel', env.kernel],
    ['Filesystems', filesystems],
    ['Rig version', env.rigVersion],
    ['Node', env.node],
    ['Host', env.hostname],
    ['Campaign file', results.file],
    ['Seeds', seedsText(results)],
    ['Shard', results.shard ? `${results.shard.index} of ${results.shard.count}` : 'unsharded'],
    ['Started', formatIso(results.startedAt)],
    ['Finished', results.finishedAt ? `${formatIso(results.finishedAt)}${duration === null ? '' : ` (${formatMs(duration)})`}` : 'not finished'],
    ['Command line', html`<code class="cmd">${results.commandLine}</code>`],
  ];
  return html`<section id="environment"><h2>Environment</h2><dl class="env">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl></section>`;
}

export function statsStrip(results: BriefedResults): Html {
  const cycles = results.cycles.length;
  const unit = judgedUnit(results.cycles);
  const torn = results.cycles.filter((c) => c.tornPages > 0).length;
  const failing = results.cycles.filter((c) => !c.expectationHeld && c.verdict !== 'rig-error').length;
  const rigErrors = results.cycles.filter((c) => c.verdict === 'rig-error').length;
  const duration = durationMs(results);
  const perfScenarios = results.scenarios.length - cutScenarios(results).length;
  const stats: [string, string][] = [
    [unit, String(cycles)],
    [`${unit} per hour`, results.cyclesPerHour === null ? '—' : String(Math.round(results.cyclesPerHour))],
    ['cycles with torn pages', String(torn)],
    ['contradicting cycles', String(failing)],
    // as the headline counts them: the scenarios that cut power; perf's pairs beside them
    ['scenarios', String(cutScenarios(results).length)],
    ...(perfScenarios > 0 ? [['perf scenarios', String(perfScenarios)] as [string, string]] : []),
    ...(rigErrors > 0 ? [['rig errors', String(rigErrors)] as [string, string]] : []),
    ['wall time', duration === null ? '—' : formatMs(duration)],
  ];
  return html`<ul class="stats">${stats.map(([label, value]) => html`<li><b>${value}</b><span>${label}</span></li>`)}</ul>`;
}
