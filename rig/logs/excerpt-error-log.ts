import type { LogEvent, LogEventKind } from '../results/types.js';
import { isNoiseLine } from './log-patterns.js';

// What a reviewer should see first when the excerpt cannot hold every classified line.
const PRIORITY: readonly LogEventKind[] = [
  'abort',
  'corruption',
  'rocksdb-wal',
  'lsn-in-future',
  'doublewrite-restore',
  'error',
  'recovery-start',
  'recovery-done',
  'ready',
];

/** Longest line shown whole: MySQL's page dumps are 32 KiB lines of hex. */
const MAX_LINE_CHARS = 400;

function clip(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}... (${line.length} characters)`;
}

/** The classified lines (1-based) to show, most telling kinds first, until the budget is spent. */
function pickLines(events: LogEvent[], lines: string[], maxLines: number, context: number): Set<number> {
  const shown = new Set<number>();
  const ordered = [...events].sort(
    (a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind) || a.line - b.line,
  );
  for (const e of ordered) {
    const window: number[] = [];
    for (let n = Math.max(1, e.line - context); n <= Math.min(lines.length, e.line + context); n++) {
      const isContext = n !== e.line;
      if (shown.has(n) || (isContext && isNoiseLine(lines[n - 1] ?? ''))) continue;
      window.push(n);
    }
    if (shown.size + window.length > maxLines) continue;
    for (const n of window) shown.add(n);
  }
  return shown;
}

/**
 * The lines of an error log worth showing a reviewer: every classified line with `context` lines
 * either side (generic advice lines left out), at most `maxLines` log lines in all, numbered as in
 * the log, with "..." where lines were skipped and a closing note when classified lines did not fit.
 */
export function excerptErrorLog(text: string, events: LogEvent[], maxLines = 40, context = 1): string {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const shown = pickLines(events, lines, maxLines, context);
  const width = String(lines.length).length;
  const out: string[] = [];
  let last = 0;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (n > last + 1) out.push('...');
    out.push(`${String(n).padStart(width)}: ${clip((lines[n - 1] ?? '').trimEnd())}`);
    last = n;
  }
  if (last > 0 && last < lines.length) out.push('...');
  const missing = events.filter((e) => !shown.has(e.line)).length;
  if (missing > 0) out.push(`(${missing} more classified line${missing === 1 ? '' : 's'} not shown)`);
  return out.join('\n');
}
