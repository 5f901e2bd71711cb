/**
 * What makes two judged crash states the same failure, for a search that must keep the failure it
 * shrinks: the same verdict and the same written-up finding (rig/findings/catalog.ts); where no
 * finding explains it, the same verdict and the first classified error-log event that names a
 * page (a corruption, an abort, an LSN in the future, a WAL refusal, another error), by its kind
 * and the page it names. A state that holds its expectation fails nothing; a rig error is no
 * failure of the server's.
 */
import { FINDINGS, FINDING_IDS, type FindingId } from './catalog.js';
import type { CycleRecord, LogEventKind, Verdict } from '../results/types.js';

export interface FailureSignature {
  verdict: Verdict;
  finding: FindingId | null;
  /** With no finding: the first failure event of the log that names a page, if any. */
  event: { kind: LogEventKind; space: number | null; page: number | null; file: string | null } | null;
}

const FAILURE_EVENTS: ReadonlySet<LogEventKind> = new Set(['corruption', 'abort', 'lsn-in-future', 'rocksdb-wal', 'error']);

/** The failure a judged state shows, or null when it shows none (held, or a rig error). */
export function failureOf(record: CycleRecord): FailureSignature | null {
  if (record.verdict === 'rig-error' || record.expectationHeld) return null;
  const finding = FINDING_IDS.find((id) => FINDINGS[id].matches(record)) ?? null;
  if (finding) return { verdict: record.verdict, finding, event: null };
  const named = record.errorLog.events.find((e) => FAILURE_EVENTS.has(e.kind) && (e.page !== undefined || e.file !== undefined));
  const event = named ? { kind: named.kind, space: named.space ?? null, page: named.page ?? null, file: named.file ?? null } : null;
  return { verdict: record.verdict, finding: null, event };
}

export function sameFailure(a: FailureSignature | null, b: FailureSignature | null): boolean {
  if (!a || !b) return false;
  return a.verdict === b.verdict && a.finding === b.finding && JSON.stringify(a.event) === JSON.stringify(b.event);
}

/** "reported-corruption, finding page0-not-restored" or "detected, corruption of ./db/t.ibd page 3". */
export function describeFailure(s: FailureSignature): string {
  if (s.finding) return `${s.verdict}, finding ${s.finding}`;
  if (!s.event) return `${s.verdict}, no finding and no page named in the log`;
  const where = [s.event.file ?? (s.event.space !== null ? `space ${s.event.space}` : null), s.event.page !== null ? `page ${s.event.page}` : null].filter(Boolean).join(' ');
  return `${s.verdict}, ${s.event.kind} of ${where}`;
}
