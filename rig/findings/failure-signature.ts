/**
 * What makes two judged crash states the same failure, for a search that must keep the failure it
 * shrinks: the same class of verdict (the server refused to start, answered with corruption, lost
 * commits, died, hung, or failed its shutdown: `detected` and `refused` are one class, the torn
 * pages that tell them apart are what a shrink takes away) and the same written-up finding
 * (rig/findings/catalog.ts); where no finding explains it, the same class and the first classified
 * error-log event that names a
 * page (a corruption, an abort, an LSN in the future, a WAL refusal, another error), by its kind
 * and the page it names. A state fails when it contradicts its expectation, or, in a scenario that
 * expects torn pages (a negative control, DETECT_ONLY), when the server did not recover: what
 * such a scenario holds is still the server failing. A rig error is no failure of the server's.
 */
import { FINDINGS } from './catalog.js';
import { FINDING_IDS, type FindingId } from '../results/finding-ids.js';
import { contradicts, needsTear } from '../results/expectation.js';
import type { CycleRecord, LogEventKind, Verdict } from '../results/types.js';

/** What a server run shows of a failure, without the rig's scans. */
export type FailureClass = 'refuses' | 'corrupts' | 'loses-commits' | 'crashed' | 'hangs' | 'shutdown-crash';

const CLASSES: Partial<Record<Verdict, FailureClass>> = {
  detected: 'refuses', refused: 'refuses', 'wal-tail-refused': 'refuses',
  'reported-corruption': 'corrupts', 'silent-corruption': 'corrupts',
  'lost-commit': 'loses-commits', crashed: 'crashed', hung: 'hangs', 'shutdown-crash': 'shutdown-crash',
};

/** The class of a failing verdict, or null for a verdict that is no failure (restored, no-torn, rig-error). */
export function failureClass(verdict: Verdict): FailureClass | null {
  return CLASSES[verdict] ?? null;
}

export interface FailureSignature {
  verdict: Verdict;
  finding: FindingId | null;
  /** With no finding: the first failure event of the log that names a page, if any. */
  event: { kind: LogEventKind; space: number | null; page: number | null; file: string | null } | null;
}

const FAILURE_EVENTS: ReadonlySet<LogEventKind> = new Set(['corruption', 'abort', 'lsn-in-future', 'rocksdb-wal', 'error']);

/** The failure a judged state shows, or null when it shows none (held, or a rig error). */
export function failureOf(record: CycleRecord): FailureSignature | null {
  if (record.verdict === 'rig-error') return null;
  const failed = needsTear(record.expectation) ? contradicts('recovers', record.verdict, record.tornPagesBefore.length) : !record.expectationHeld;
  if (!failed) return null;
  const finding = FINDING_IDS.find((id) => FINDINGS[id].matches(record)) ?? null;
  if (finding) return { verdict: record.verdict, finding, event: null };
  const named = record.errorLog.events.find((e) => FAILURE_EVENTS.has(e.kind) && (e.page !== undefined || e.file !== undefined));
  const event = named ? { kind: named.kind, space: named.space ?? null, page: named.page ?? null, file: named.file ?? null } : null;
  return { verdict: record.verdict, finding: null, event };
}

export function sameFailure(a: FailureSignature | null, b: FailureSignature | null): boolean {
  if (!a || !b) return false;
  return failureClass(a.verdict) === failureClass(b.verdict) && a.finding === b.finding && JSON.stringify(a.event) === JSON.stringify(b.event);
}

/** "reported-corruption, finding page0-not-restored" or "detected, corruption of ./db/t.ibd page 3". */
export function describeFailure(s: FailureSignature): string {
  if (s.finding) return `${s.verdict}, finding ${s.finding}`;
  if (!s.event) return `${s.verdict}, no finding and no page named in the log`;
  const where = [s.event.file ?? (s.event.space !== null ? `space ${s.event.space}` : null), s.event.page !== null ? `page ${s.event.page}` : null].filter(Boolean).join(' ');
  return `${s.verdict}, ${s.event.kind} of ${where}`;
}
