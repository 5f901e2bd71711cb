import type { LogEvent, LogEventKind } from '../results/types.js';
import type { PageRef } from './page-ref.js';

/** What an error log said, folded: counts per kind and the pages it named. */
export interface LogSummary {
  counts: Record<LogEventKind, number>;
  ready: boolean; // the server said "ready for connections"
  aborted: boolean; // the server said it was aborting (or failed an assertion)
  corruptPages: PageRef[]; // pages named by corruption lines, each once, in log order
  restoredPages: PageRef[]; // pages named by doublewrite-restore lines, each once
}

const KINDS: readonly LogEventKind[] = [
  'corruption',
  'rocksdb-wal',
  'doublewrite-restore',
  'lsn-in-future',
  'abort',
  'recovery-start',
  'recovery-done',
  'ready',
  'error',
];

function emptyCounts(): Record<LogEventKind, number> {
  return Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<LogEventKind, number>;
}

/**
 * The distinct pages named by events of one kind, in log order; lines that name no page number are
 * left out. Lines naming the same space id and page are one page (keeping a file either names);
 * lines without a space id are matched by file and page.
 */
function pagesOf(events: LogEvent[], kind: LogEventKind): PageRef[] {
  const seen = new Map<string, PageRef>();
  for (const e of events) {
    if (e.kind !== kind || e.page === undefined) continue;
    const key = e.space !== undefined ? `space ${e.space} page ${e.page}` : `file ${e.file} page ${e.page}`;
    const known = seen.get(key);
    if (known) {
      if (known.file === undefined && e.file !== undefined) known.file = e.file;
      continue;
    }
    const ref: PageRef = { page: e.page };
    if (e.space !== undefined) ref.space = e.space;
    if (e.file !== undefined) ref.file = e.file;
    seen.set(key, ref);
  }
  return [...seen.values()];
}

/** Folds classified events: counts per kind, ready, aborted, and the corrupt / restored pages. */
export function summarizeLog(events: LogEvent[]): LogSummary {
  const counts = emptyCounts();
  for (const e of events) counts[e.kind] += 1;
  return {
    counts,
    ready: counts.ready > 0,
    aborted: counts.abort > 0,
    corruptPages: pagesOf(events, 'corruption'),
    restoredPages: pagesOf(events, 'doublewrite-restore'),
  };
}
