/**
 * The server's error log around the lines the classifier flagged, numbered as in the log. Each
 * flagged line names its kind in words, and where it names a page, whether the disk tore that
 * page at the cut (a server whose recovery aborted reports intact pages as corrupt too).
 * The excerpt is the rig's own (rig/logs): cut from the kept log when there is one, else the
 * excerpt saved in results.json.
 */
import type { LogEvent, LogEventKind, TornPage } from '../../../rig/results/types.js';
import { excerptErrorLog } from '../../../rig/logs/excerpt-error-log.js';
import { html, type Html } from '../../html.js';

export interface LogSource {
  text: string; // the whole log as kept in the evidence folder
  origin: string; // where it came from, said under the excerpt
  href?: string; // a link to the whole log, relative to the report
}

export type ExcerptRow = { n: number; text: string } | { gap: true } | { note: string };

const MAX_LINES = 36;
const NUMBERED = /^\s*(\d+): ?(.*)$/;

/** Reads the rig's excerpt format ("  12: text", "...", a closing note); plain text counts from 1. */
export function parseExcerpt(excerpt: string): ExcerptRow[] {
  const lines = excerpt.replace(/\n$/, '').split('\n');
  const numbered = lines.some((l) => NUMBERED.test(l));
  if (!numbered) return lines.map((text, i) => ({ n: i + 1, text }));
  return lines.map((line): ExcerptRow => {
    const m = NUMBERED.exec(line);
    if (m) return { n: Number(m[1]), text: m[2] ?? '' };
    return line.trim() === '...' ? { gap: true } : { note: line };
  });
}

/** Replaces the excerpt's closing note with one that counts every classified line left out. */
function withNote(excerpt: string, leftOut: number): string {
  const lines = excerpt.split('\n');
  const note = /^\((\d+) more classified lines? not shown\)$/.exec(lines.at(-1) ?? '');
  const missing = leftOut + (note ? Number(note[1]) : 0);
  if (note) lines.pop();
  if (missing > 0) lines.push(`(${missing} more classified line${missing === 1 ? '' : 's'} not shown)`);
  return lines.join('\n');
}

function kindCounts(events: LogEvent[]): [LogEventKind, number][] {
  const counts = new Map<LogEventKind, number>();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return [...counts.entries()];
}

const PER_KIND = 3;

/** Events worth the excerpt's budget: the first few and the last of every kind, so no kind drowns the rest. */
export function pickVaried(events: LogEvent[]): LogEvent[] {
  const byKind = new Map<LogEventKind, LogEvent[]>();
  for (const e of events) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
  const keep = new Set([...byKind.values()].flatMap((list) => [...list.slice(0, PER_KIND), list[list.length - 1]!]));
  return events.filter((e) => keep.has(e));
}

function namesPage(e: LogEvent): boolean {
  return e.page !== undefined && (e.space !== undefined || e.file !== undefined);
}

function isTorn(e: LogEvent, torn: TornPage[]): boolean {
  return torn.some((p) => p.page === e.page && (e.space !== undefined && p.space !== null ? p.space === e.space : p.file === e.file));
}

/** One line: how many of the pages the log names the disk really tore. */
export function groundTruthLine(events: LogEvent[], torn: TornPage[]): Html | null {
  const named = new Map<string, LogEvent>();
  for (const e of events) if (namesPage(e) && e.kind !== 'doublewrite-restore') named.set(`${e.space ?? e.file}:${e.page}`, e);
  if (named.size === 0) return null;
  const hits = [...named.values()].filter((e) => isTorn(e, torn)).length;
  return html`<p class="sub">The log names ${named.size} page${named.size === 1 ? '' : 's'} as damaged or ahead of the log; the disk tore <b>${hits}</b> of them at the cut. Verdicts rest on the disk's record and the page scans, not on these lines.</p>`;
}

/** "disk tore this page" / "not torn at the cut" for a line naming a page, else nothing. */
export function groundTruthTag(e: LogEvent, torn: TornPage[]): Html | null {
  if (!namesPage(e)) return null;
  const hit = isTorn(e, torn);
  return hit
    ? html` <span class="tag gt-torn">disk tore this page</span>`
    : html` <span class="tag gt-intact">not torn at the cut</span>`;
}

/** Lines a gap hides, from the numbered rows around it; null at the end of a log of unknown length. */
export function gapSize(rows: ExcerptRow[], at: number, total: number | null): number | null {
  const before = rows.slice(0, at).reverse().find((r): r is { n: number; text: string } => 'n' in r);
  const after = rows.slice(at + 1).find((r): r is { n: number; text: string } => 'n' in r);
  if (after) return after.n - (before?.n ?? 0) - 1;
  return before && total !== null ? total - before.n : null;
}

function renderRows(rows: ExcerptRow[], byLine: Map<number, LogEvent>, torn: TornPage[], total: number | null): Html[] {
  return rows.map((row, i) => {
    if ('gap' in row) {
      const size = gapSize(rows, i, total);
      return html`<tr class="gap"><td></td><td>⋯ ${size === null ? 'more lines' : `${size} line${size === 1 ? '' : 's'}`} not shown</td></tr>`;
    }
    if ('note' in row) return html`<tr class="gap"><td></td><td>${row.note}</td></tr>`;
    const e = byLine.get(row.n);
    return html`<tr${e ? html` class="k-${e.kind}"` : null}><td>${row.n}</td><td>${e ? html`<b class="tag k-${e.kind}">${e.kind}</b> ` : null}${row.text}${e ? groundTruthTag(e, torn) : null}</td></tr>`;
  });
}

export function logExcerpt(source: LogSource | null, excerpt: string, events: LogEvent[], torn: TornPage[]): Html {
  const summary = html`<p class="log-kinds">${events.length === 0 ? html`<span class="muted">No line was classified.</span>` : kindCounts(events).map(([kind, n]) => html`<span class="tag k-${kind}">${kind} ×${n}</span> `)}</p>`;
  const varied = pickVaried(events);
  const text = source ? withNote(excerptErrorLog(source.text, varied, MAX_LINES, 1), events.length - varied.length) : excerpt;
  if (text.trim().length === 0) return html`${summary}<p class="muted">No error log was saved for this cycle.</p>`;
  const byLine = new Map<number, LogEvent>();
  for (const e of events) if (!byLine.has(e.line)) byLine.set(e.line, e);
  const rows = parseExcerpt(text);
  const total = source ? source.text.replace(/\n$/, '').split('\n').length : null;
  const shown = rows.filter((r) => 'n' in r).length;
  const origin = source ? html`${source.origin}: ${shown} of ${total} lines shown${source.href ? html` · <a href="${source.href}">open the whole log</a>` : null}` : html`excerpt saved in results.json`;
  return html`${summary}${groundTruthLine(events, torn)}<div class="log"><table class="log-lines"><tbody>${renderRows(rows, byLine, torn, total)}</tbody></table></div><p class="sub">${origin}</p>`;
}
