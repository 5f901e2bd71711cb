/**
 * Stage 8, judge: fold what the recovery and the scans found into the record, and the verdict
 * from judge.ts's rules. A scan that contradicts the disk's truth makes the cycle a rig error
 * whatever the server did: no verdict is built on a contradiction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyErrorLog, excerptErrorLog, summarizeLog } from '../../logs/index.js';
import type { PageRef } from '../../logs/page-ref.js';
import { describeExercised } from '../../results/exercised.js';
import type { CycleRecord } from '../../results/types.js';
import { judgeCycle } from '../judge.js';
import { page0Finding, page0LogLines } from '../page0-evidence.js';
import { describeMismatch } from '../reconcile.js';
import { rocksdbWritesPending, walTailLost } from '../rocksdb-writes.js';
import type { RecoveryResult } from './recover.js';
import type { AfterScan } from './scan-after.js';
import type { CrashScan } from './scan.js';

/**
 * Pages the server's log named corrupt that the cut did not tear, when it named any: its complaint
 * was then (also) about a page no torn write explains, which the reason must say rather than let
 * the torn pages take the blame. A page is matched by space id and number, or by file and number.
 */
export function corruptUntorn(torn: CycleRecord['tornPagesBefore'], corrupt: readonly PageRef[]): string[] {
  const tornKeys = new Set(torn.flatMap((p) => [`${p.file}#${p.page}`, ...(p.space === null ? [] : [`space ${p.space}#${p.page}`])]));
  const named = corrupt.filter((r) => r.page !== undefined && (r.file !== undefined || r.space !== undefined));
  const untorn = named.filter((r) => !(r.file !== undefined && tornKeys.has(`${r.file}#${r.page}`)) && !(r.space !== undefined && tornKeys.has(`space ${r.space}#${r.page}`)));
  if (!untorn.length) return [];
  const names = untorn.map((r) => `${r.file ?? `space ${r.space}`} page ${r.page}`);
  const one = untorn.length === 1;
  return [`the server named ${names.join(', ')} corrupt, which the cut did not tear (${one ? 'no torn write explains it' : 'no torn write explains them'})`];
}

/** Torn pages whose home write was issued while their doublewrite copy was still unflushed. */
function unflushedCopies(torn: CycleRecord['tornPagesBefore']): string[] {
  const early = torn.filter((p) => (p.doublewrite.inFlight ?? []).some((c) => c.beforeHomeWrite));
  if (!early.length) return [];
  const lost = early.filter((p) => !p.doublewrite.restorable).length;
  return [`${early.length} torn page${early.length === 1 ? "'s" : "s'"} home write${early.length === 1 ? ' was' : 's were'} issued while ${early.length === 1 ? 'its' : 'their'} doublewrite copy was still unflushed (no flush between them), ${lost} of them left with no copy the server accepts`];
}

/** Torn pages whose doublewrite copy a later write overwrote while their home write was still unflushed. */
function reusedSlots(torn: CycleRecord['tornPagesBefore']): string[] {
  const reused = torn.filter((p) => (p.doublewrite.overwritten ?? []).some((c) => c.afterHomeWrite));
  if (!reused.length) return [];
  const lost = reused.filter((p) => !p.doublewrite.restorable).length;
  const one = reused.length === 1;
  return [`${reused.length} torn page${one ? "'s" : "s'"} doublewrite cop${one ? 'y was' : 'ies were'} overwritten by a later write while ${one ? 'its' : 'their'} home write was still unflushed (no flush between them), ${lost} of them left with no copy the server accepts`];
}

/** Torn pages left with no accepted copy that a copy in a doublewrite slot the filesystem reads as zeros would have restored. */
function unwrittenCopies(torn: CycleRecord['tornPagesBefore']): string[] {
  const hidden = torn.filter((p) => !p.doublewrite.restorable && p.doublewrite.unwritten?.wouldRestore);
  if (!hidden.length) return [];
  const one = hidden.length === 1;
  return [`${hidden.length} torn page${one ? '' : 's'} with no copy the server accepts had ${one ? 'its' : 'their'} copy on the device in a doublewrite slot the filesystem reads as zeros (an extent still marked unwritten)`];
}

export function judgeRecovery(record: CycleRecord, dir: string, scanned: CrashScan, recovery: RecoveryResult, after: AfterScan | null): void {
  writeFileSync(join(dir, 'error.log'), recovery.errorLog);
  const events = classifyErrorLog(recovery.errorLog);
  record.errorLog = { excerpt: excerptErrorLog(recovery.errorLog, events), events };
  record.serverStarted = recovery.run.readyMs !== null;
  record.recovery = recovery.run;
  record.ledger = recovery.ledger;
  record.checkTable = recovery.checkTable;
  record.invariants = recovery.invariants;
  record.tornPagesBefore = after?.torn ?? scanned.torn;
  record.pagesAfter = after?.pagesAfter ?? [];
  for (const p of record.tornPagesBefore) if (p.attribution) record.attribution[p.attribution]++;
  for (const p of record.tornPagesBefore) {
    if (!p.page0) continue;
    p.page0.serverLog = page0LogLines(recovery.errorLog, p);
    p.page0.finding = page0Finding(p);
  }
  record.exercised = describeExercised(record.tornPagesBefore, record.pendingWrites, record.settings.server.pageSize, record.settings.disk.atomicUnit);
  if (scanned.rocksdb) record.exercised.rocksdbWritesInFlight = rocksdbWritesPending(scanned.rocksdb);
  const summary = summarizeLog(events);
  const logged = summary.counts;
  const { verdict, reason } = judgeCycle({
    torn: record.tornPagesBefore,
    run: recovery.run,
    loggedCorruption: logged.corruption > 0,
    ...(scanned.rocksdb ? { wal: { logged: logged['rocksdb-wal'] > 0, lost: walTailLost(scanned.rocksdb) } } : {}),
    ledger: record.ledger,
    checkTable: record.checkTable,
    invariants: record.invariants,
    pagesAfter: record.pagesAfter,
    writeOrder: scanned.writeOrder,
  });
  record.verdict = verdict;
  const page0Findings = record.tornPagesBefore.flatMap((p) => (p.page0?.finding ? [p.page0.finding] : []));
  record.reason = [reason, ...page0Findings, ...unflushedCopies(record.tornPagesBefore), ...reusedSlots(record.tornPagesBefore), ...unwrittenCopies(record.tornPagesBefore), ...corruptUntorn(record.tornPagesBefore, summary.corruptPages)].join('; ');
  if (!scanned.reconciliation.ok) {
    record.verdict = 'rig-error';
    record.error = describeMismatch(scanned.reconciliation);
    record.reason = `rig error: ${record.error} (the server's outcome would have been ${verdict})`;
  }
}
