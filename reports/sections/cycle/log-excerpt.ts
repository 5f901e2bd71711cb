/**
 * The server's error log around the lines the classifier flagged. Each flagged line is marked with
 * its kind in words; a long log is cut to windows around flagged lines of every kind (the first
 * few and the last of each), with the gaps counted and a link to the whole log when it was kept.
 */
import type { LogEvent, LogEventKind } from '../../../rig/results/types.js';
import { html, type Html } from '../../html.js';

export interface LogSource {
  text: string;
  firstLine: number; // the log line number of text's first line
  origin: string; // where the text came from, said under the excerpt
  href?: string; // a link to the whole log, relative to the report
}

const CONTEXT = 1;
const SHOW_ALL_BELOW = 40;
const MAX_LINES = 36;
const PER_KIND = 3;

/** Flagged lines worth showing first: up to PER_KIND of each kind plus the last of each kind. */
export function pickFlagged(events: LogEvent[]): number[] {
  const byKind = new Map<LogEventKind, number[]>();
  for (const e of events) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e.line]);
  const first = [...byKind.values()].flatMap((lines) => [...lines.slice(0, PER_KIND), lines[lines.length - 1]!]);
  const rest = events.map((e) => e.line);
  return [...new Set([...first, ...rest])];
}

export function selectLines(count: number, firstLine: number, flagged: number[]): number[] {
  const last = firstLine + count - 1;
  if (count <= SHOW_ALL_BELOW) return Array.from({ length: count }, (_, i) => firstLine + i);
  const keep = new Set<number>([firstLine, firstLine + 1, last]);
  for (const line of flagged) {
    if (keep.size >= MAX_LINES) break;
    for (let n = line - CONTEXT; n <= line + CONTEXT; n++) if (n >= firstLine && n <= last) keep.add(n);
  }
  return [...keep].sort((a, b) => a - b);
}

function kindCounts(events: LogEvent[]): [LogEventKind, number][] {
  const counts = new Map<LogEventKind, number>();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return [...counts.entries()];
}

function gapRow(lines: number): Html {
  return html`<tr class="gap"><td></td><td>⋯ ${lines} line${lines === 1 ? '' : 's'} not shown</td></tr>`;
}

export function logExcerpt(source: LogSource | null, events: LogEvent[]): Html {
  const summary = html`<p class="log-kinds">${events.length === 0 ? html`<span class="muted">No line was classified.</span>` : kindCounts(events).map(([kind, n]) => html`<span class="tag k-${kind}">${kind} ×${n}</span> `)}</p>`;
  if (!source || source.text.length === 0) return html`${summary}<p class="muted">No error log was saved for this cycle.</p>`;
  const lines = source.text.replace(/\n$/, '').split('\n');
  const byLine = new Map<number, LogEvent>();
  for (const e of events) if (!byLine.has(e.line)) byLine.set(e.line, e);
  const shown = selectLines(lines.length, source.firstLine, pickFlagged(events));
  const rows: Html[] = [];
  let previous = source.firstLine - 1;
  for (const n of shown) {
    if (n > previous + 1) rows.push(gapRow(n - previous - 1));
    const e = byLine.get(n);
    rows.push(html`<tr${e ? html` class="k-${e.kind}"` : null}><td>${n}</td><td>${e ? html`<b class="tag k-${e.kind}">${e.kind}</b> ` : null}${lines[n - source.firstLine] ?? ''}</td></tr>`);
    previous = n;
  }
  const whole = source.href ? html` · <a href="${source.href}">open the whole log</a>` : null;
  return html`${summary}<div class="log"><table class="log-lines"><tbody>${rows}</tbody></table></div><p class="sub">${source.origin}: ${shown.length} of ${lines.length} lines shown${whole}</p>`;
}
