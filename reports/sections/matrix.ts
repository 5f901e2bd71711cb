/**
 * The scenario matrix as a grid: rows are filesystems (led by the server and its engine where the
 * campaign runs more than one, and with page sizes where they vary), columns are doublewrite
 * on/fast/detect-and-recover/detect-only/off by atomic unit. Each cell shows its scenarios' outcome in words and colour.
 */
import type { ScenarioSummary } from '../../rig/results/types.js';
import type { BriefedResults, CycleBrief } from '../../rig/results/cycle-brief.js';
import { FILESYSTEMS, type FsKind } from '../../faults/filesystems.js';
import { DEFAULT_DISK } from '../../rig/defaults.js';
import { DOUBLEWRITE_MODES, doublewriteMode, type DoublewriteMode } from '../../rig/results/doublewrite-mode.js';
import { VERDICT_ORDER, VERDICT_LABELS, formatUnit } from '../format.js';
import { html, anchorId, type Html } from '../html.js';
import { STATUS_RANK, STATUS_TEXT, scenarioStatus } from '../outcome.js';
import { cutScenarios } from '../cut-scenarios.js';

interface Axis {
  key: string;
  label: string;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

const modeOf = (s: ScenarioSummary): DoublewriteMode => doublewriteMode(s.settings.server.doublewrite);

function columnsOf(scenarios: ScenarioSummary[]): { dw: DoublewriteMode; unit: number }[] {
  const units = unique(scenarios.map((s) => s.settings.disk.atomicUnit)).sort((a, b) => a - b);
  return DOUBLEWRITE_MODES.flatMap((dw) =>
    units.filter((unit) => scenarios.some((s) => modeOf(s) === dw && s.settings.disk.atomicUnit === unit))
      .map((unit) => ({ dw, unit })));
}

/** What varies between rows besides the filesystem. */
interface RowShape {
  pageSizes: boolean;
  servers: Map<string, string> | null; // scenario name -> its server's label, when servers vary
}

/**
 * The server a scenario ran, as its cycles recorded it ("mariadbd 11.8.9-MariaDB-0+deb13u1"),
 * else its runtime and image; with the engine of its tables when that is not InnoDB.
 */
function serverLabel(s: ScenarioSummary, cycles: readonly CycleBrief[]): string {
  const version = cycles.find((c) => c.scenario === s.name && c.server?.version)?.server?.version;
  const server = version ?? (s.settings.image ? `${s.settings.runtime} ${s.settings.image}` : s.settings.runtime);
  return s.settings.server.engine === 'rocksdb' ? `${server} · RocksDB` : server;
}

function rowShape(results: BriefedResults): RowShape {
  const scenarios = cutScenarios(results);
  const labels = new Map(scenarios.map((s) => [s.name, serverLabel(s, results.cycles)]));
  return {
    pageSizes: unique(scenarios.map((s) => s.settings.server.pageSize)).length > 1,
    servers: unique([...labels.values()]).length > 1 ? labels : null,
  };
}

function rowsOf(scenarios: ScenarioSummary[], shape: RowShape): Axis[] {
  const keys = unique(scenarios.map((s) => rowKey(s, shape)));
  return keys.map((key) => {
    const [server, fs, page] = key.split('|') as [string, FsKind, string];
    const label = [shape.servers ? server : '', fsLabel(fs), shape.pageSizes ? `${formatUnit(Number(page))} pages` : ''].filter(Boolean).join(' · ');
    return { key, label };
  });
}

function fsLabel(fs: FsKind): string {
  const label = FILESYSTEMS[fs]?.label ?? fs; // a filesystem this version no longer makes: its name
  return fs === DEFAULT_DISK.fs ? `${label} (default)` : label;
}

function rowKey(s: ScenarioSummary, shape: RowShape): string {
  return `${shape.servers?.get(s.name) ?? ''}|${s.settings.disk.fs}|${shape.pageSizes ? s.settings.server.pageSize : ''}`;
}

export function matrixSection(results: BriefedResults): Html {
  const scenarios = cutScenarios(results);
  if (scenarios.length === 0) return html`<section id="matrix"><h2>Matrix</h2><p class="muted">No scenarios.</p></section>`;
  const columns = columnsOf(scenarios);
  const shape = rowShape(results);
  const rows = rowsOf(scenarios, shape);
  const corner = [shape.servers ? 'server' : '', 'filesystem', shape.pageSizes ? 'page size' : ''].filter(Boolean).join(' · ');
  const groups = DOUBLEWRITE_MODES.map((dw) => ({ dw, span: columns.filter((c) => c.dw === dw).length })).filter((g) => g.span > 0);
  return html`<section id="matrix"><h2>Matrix</h2>
<table class="matrix"><thead>
<tr><th rowspan="2" class="corner">${corner}</th>${groups.map((g) => html`<th colspan="${g.span}" class="dw-group">doublewrite ${g.dw === 'on' || g.dw === 'off' ? g.dw.toUpperCase() : g.dw}</th>`)}</tr>
<tr>${columns.map((c) => html`<th>atomic ${formatUnit(c.unit)}</th>`)}</tr>
</thead><tbody>${rows.map((row) => html`<tr><th class="row-head">${row.label}</th>${columns.map((c) =>
    matrixCell(scenarios.filter((s) => rowKey(s, shape) === row.key && modeOf(s) === c.dw && s.settings.disk.atomicUnit === c.unit)))}</tr>`)}
</tbody></table>
<p class="legend">${STATUS_RANK.map((st) => html`<span class="status status-${st}">${STATUS_TEXT[st].icon} ${STATUS_TEXT[st].label}</span> `)}</p></section>`;
}

function matrixCell(cell: ScenarioSummary[]): Html {
  if (cell.length === 0) return html`<td class="cell cell-empty"><span class="muted">not in this campaign</span></td>`;
  const worst = STATUS_RANK.find((st) => cell.some((s) => scenarioStatus(s) === st)) ?? 'pass';
  return html`<td class="cell cell-${worst}">${cell.map((s) => {
    const st = scenarioStatus(s);
    const counts = VERDICT_ORDER.filter((v) => (s.verdictCounts[v] ?? 0) > 0).map((v) => `${s.verdictCounts[v]} ${VERDICT_LABELS[v]}`).join(', ');
    return html`<div class="cell-scenario"><span class="cell-status">${STATUS_TEXT[st].icon} ${STATUS_TEXT[st].label}</span> <a href="#${anchorId('scenario', s.name)}">${s.name}</a>
<div class="cell-detail">expects ${s.expectation} · torn in ${s.tornCycles}/${s.cyclesRun}</div><div class="cell-detail">${counts || 'no cycles'}</div></div>`;
  })}</td>`;
}
