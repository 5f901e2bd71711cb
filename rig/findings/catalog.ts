/**
 * The server findings the rig has written up (docs/findings/), each with the signature that tells
 * a cycle that hit it from one that failed for another reason. A scenario names the findings it
 * hunts or knows (`findings:` in a campaign file): its judged cycles that match a signature count
 * as hits of that finding; those among them that contradict the expectation are listed as such and
 * do not fail the campaign; a contradiction no signature explains still fails it.
 */
import { writesPageCopies } from '../results/doublewrite-mode.js';
import type { CycleRecord, FlushMethod } from '../results/types.js';
import { serverIdentity } from '../results/server-identity.js';
import type { FindingId } from '../results/finding-ids.js';


export interface Finding {
  id: FindingId;
  title: string;
  /** The write-up, relative to the package root. */
  doc: string;
  /** Whether a judged cycle shows this finding. */
  matches(record: CycleRecord): boolean;
}

/** The first of a scenario's findings that explains a cycle, or null. */
export function knownFinding(findings: readonly Finding[], record: CycleRecord): Finding | null {
  return findings.find((f) => f.matches(record)) ?? null;
}

/** A torn page in use (not freed before or by recovery). */
const inUse = (p: CycleRecord['tornPagesBefore'][number]): boolean => !p.freedBefore && !p.freedAfter;

/** A torn page in use left with no copy the server accepts, its home write issued before its copy was flushed. */
const lostToUnflushedCopy = (r: CycleRecord): boolean =>
  r.tornPagesBefore.some((p) => inUse(p) && !p.doublewrite.restorable && (p.doublewrite.inFlight ?? []).some((c) => c.beforeHomeWrite));

/**
 * A torn page in use left with no copy the server accepts, its copy overwritten by a later
 * doublewrite batch issued after its home write with no flush between.
 */
const lostToReusedSlot = (r: CycleRecord): boolean =>
  r.tornPagesBefore.some((p) => inUse(p) && !p.doublewrite.restorable && (p.doublewrite.overwritten ?? []).some((c) => c.afterHomeWrite));

/**
 * Whether the disk had a volatile write cache (a record written before device profiles did). The
 * flush methods that skip syncing the doublewrite copies assume a power-loss protected device,
 * where a completed write is durable: on a durable cache the same break is no known finding.
 */
const volatileCache = (r: CycleRecord): boolean => (r.settings.disk.model?.cache ?? 'volatile') === 'volatile';

const ranMysql = (r: CycleRecord): boolean => r.server !== undefined && serverIdentity(r.server.version).flavor === 'mysql';

/** The flush methods with which MySQL never flushes its doublewrite files before the home writes (is_fsync_required() is false). */
const UNFLUSHED_DBLWR_METHODS: ReadonlySet<FlushMethod> = new Set(['O_DIRECT', 'O_DIRECT_NO_FSYNC']);

/** A torn TRX_SYS page of the system tablespace (ibdata1 page 5) in use, with a valid copy in the doublewrite files. */
const tornTrxSysWithCopy = (r: CycleRecord): boolean =>
  r.tornPagesBefore.some((p) => inUse(p) && p.file === './ibdata1' && p.page === 5 && p.doublewrite.copies.some((c) => c.valid && c.source.endsWith('.dblwr')));

/** MySQL's "Corrupted page [page id: space=S, page number=0] of datafile 'F' could not be found in the doublewrite buffer". */
const PAGE0_NOT_FOUND = /Corrupted page \[page id: space=(\d+), page number=0\] of datafile '([^']+)' could not be found in the doublewrite buffer/;

/**
 * A torn page 0 with a copy MySQL's own lookup would accept (under the file's space id), which the
 * server looked for under another space id: the one its survey chose (its log says which).
 */
const page0LookedUpElsewhere = (r: CycleRecord): boolean =>
  r.tornPagesBefore.some((p) => {
    if (p.page !== 0 || !p.page0 || !p.doublewrite.restorable || p.space === null) return false;
    const name = p.file.replace(/^\.\//, '');
    return p.page0.serverLog.some((line) => {
      const m = PAGE0_NOT_FOUND.exec(line);
      return m !== null && Number(m[1]) !== p.space && m[2]!.replace(/^\.\//, '') === name;
    });
  });

/**
 * The copy MySQL's rules take for a torn page in use (the first it meets in the .dblwr files) is
 * older than the checkpoint while a newer valid copy of the page is there too, and the page's
 * durable version before the cut was newer than that copy: writing it puts the page back past
 * changes the checkpoint says are on disk, which redo from the checkpoint cannot bring back.
 */
function staleCopyRestored(r: CycleRecord, p: CycleRecord['tornPagesBefore'][number]): boolean {
  const dw = p.doublewrite;
  const used = dw.restorable ? dw.copies.find((c) => c.accepted) : undefined;
  if (!inUse(p) || !used || dw.checkpointLsn === null || used.lsn >= dw.checkpointLsn) return false;
  if (!dw.copies.some((c) => c.valid && c.lsn > used.lsn) || (p.durableLsn ?? 0) <= used.lsn) return false;
  if (r.serverStarted) return p.currentAfter === false;
  // It did not start. Every other torn page in use had a copy its rules accept, so nothing else
  // explains it: the server wrote that stale copy, then aborted (an assertion or a signal while
  // it applied redo; such asserts rarely name the page) or named the page in an error.
  if (r.tornPagesBefore.some((q) => inUse(q) && !q.doublewrite.restorable)) return false;
  const events = r.errorLog.events;
  const restore = events.find((e) => e.kind === 'doublewrite-restore' && e.space === p.space && e.page === p.page);
  return restore !== undefined && events.some((e) => e.line > restore.line && (e.kind === 'abort' || ((e.kind === 'error' || e.kind === 'corruption') && e.page === p.page)));
}

/**
 * A torn page in use with no copy the server accepts, which a copy on the device would have
 * restored: one in a doublewrite slot the crash image's filesystem reads as zeros, its extent still
 * marked unwritten.
 */
const copyInUnwrittenExtent = (r: CycleRecord): boolean =>
  r.tornPagesBefore.some((p) => inUse(p) && !p.doublewrite.restorable && p.doublewrite.unwritten?.wouldRestore === true);

/** MariaDB's refusal: "Missing FILE_CREATE, FILE_DELETE or FILE_MODIFY before FILE_CHECKPOINT for tablespace N". */
const MISSING_FILE_RECORD = /Missing FILE_CREATE, FILE_DELETE or FILE_MODIFY before FILE_CHECKPOINT for tablespace (\d+)/;

/**
 * MariaDB refused to start for want of a FILE_* record for a tablespace whose FILE_CREATE the
 * crash image's redo log holds after the checkpoint, followed by a FILE_RENAME of it.
 */
function refusedCreatedThenRenamed(r: CycleRecord): boolean {
  if (r.serverStarted || !r.redoFileOps) return false;
  const named = r.errorLog.events.map((e) => MISSING_FILE_RECORD.exec(e.text)).find((m) => m !== null);
  if (!named) return false;
  const space = Number(named[1]);
  const ops = r.redoFileOps.ops.filter((o) => o.space === space);
  const created = ops.findIndex((o) => o.op === 'create');
  return created >= 0 && ops.slice(created + 1).some((o) => o.op === 'rename');
}

export const FINDINGS: Record<FindingId, Finding> = {
  'page0-not-restored': {
    id: 'page0-not-restored',
    title: "MariaDB 10.11 and 11.8 accept a torn page 0's doublewrite copy and never write it",
    doc: 'docs/findings/page0-not-restored.md',
    matches: (r) => r.tornPagesBefore.some((p) => p.page0?.finding),
  },
  'o-direct-no-fsync': {
    id: 'o-direct-no-fsync',
    title: 'MariaDB 10.11 with innodb_flush_method=O_DIRECT_NO_FSYNC: doublewrite cannot protect on a volatile write cache',
    doc: 'docs/findings/o-direct-no-fsync.md',
    matches: (r) =>
      !ranMysql(r) &&
      volatileCache(r) &&
      writesPageCopies(r.settings.server.doublewrite) &&
      r.settings.server.flushMethod === 'O_DIRECT_NO_FSYNC' &&
      (lostToUnflushedCopy(r) || lostToReusedSlot(r)),
  },
  'unaligned-16k': {
    id: 'unaligned-16k',
    title: '16 KiB atomic writes without doublewrite tear pages on filesystems that do not keep pages 16 KiB-aligned',
    doc: 'docs/findings/unaligned-16k.md',
    matches: (r) =>
      !writesPageCopies(r.settings.server.doublewrite) &&
      r.settings.disk.atomicUnit >= r.settings.server.pageSize &&
      r.tornPagesBefore.length > 0 &&
      (r.cut?.stats.pageWritesStraddling ?? 0) > 0,
  },
  'par-not-synced': {
    id: 'par-not-synced',
    title: "MariaDB 10.11 never syncs a partitioned table's .par file: a cut after CREATE, ADD or DROP PARTITION leaves the table unreadable",
    doc: 'docs/findings/par-not-synced.md',
    matches: (r) =>
      [...r.invariants.violations, ...r.checkTable.failed].some((line) => line.includes('Failed to read from the .par file')),
  },
  'fsync-checkpoint-race': {
    id: 'fsync-checkpoint-race',
    title: 'MariaDB 10.11 with buffered page writes (flush method fsync) makes a checkpoint durable before page writes it covers',
    doc: 'docs/findings/fsync-checkpoint-race.md',
    matches: (r) => (r.writeOrder?.violationCount ?? 0) > 0,
  },
  'mysql-o-direct-dblwr': {
    id: 'mysql-o-direct-dblwr',
    title: 'MySQL 9.7 with innodb_flush_method=O_DIRECT never flushes its doublewrite files before the home writes: no protection on a volatile write cache',
    doc: 'docs/findings/mysql-o-direct-dblwr.md',
    matches: (r) =>
      ranMysql(r) &&
      volatileCache(r) &&
      writesPageCopies(r.settings.server.doublewrite) &&
      UNFLUSHED_DBLWR_METHODS.has(r.settings.server.flushMethod) &&
      lostToUnflushedCopy(r),
  },
  'mysql-trx-sys-page': {
    id: 'mysql-trx-sys-page',
    title: "MySQL 9.7 reads ibdata1's TRX_SYS page before it restores pages from the doublewrite files: torn, it stops the server although its copy is valid",
    doc: 'docs/findings/mysql-trx-sys-page.md',
    matches: (r) => ranMysql(r) && writesPageCopies(r.settings.server.doublewrite) && !r.serverStarted && tornTrxSysWithCopy(r),
  },
  'mysql-page0-survey': {
    id: 'mysql-page0-survey',
    title: "MySQL 9.7's survey for a torn page 0's space id can take a slice of a 16 KiB page for a small compressed page, then misses page 0's valid doublewrite copy and stops",
    doc: 'docs/findings/mysql-page0-survey.md',
    matches: (r) => ranMysql(r) && writesPageCopies(r.settings.server.doublewrite) && !r.serverStarted && page0LookedUpElsewhere(r),
  },
  'mysql-stale-dblwr-copy': {
    id: 'mysql-stale-dblwr-copy',
    title: 'MySQL 9.7 restores a torn page from the first doublewrite copy it reads, though it is older than the checkpoint and a newer valid copy is there: redo then breaks the page',
    doc: 'docs/findings/mysql-stale-dblwr-copy.md',
    matches: (r) => ranMysql(r) && writesPageCopies(r.settings.server.doublewrite) && r.tornPagesBefore.some((p) => staleCopyRestored(r, p)),
  },
  'create-then-rename': {
    id: 'create-then-rename',
    title: 'MariaDB 10.11 refuses to recover when a tablespace created after the checkpoint was renamed before the cut (TRUNCATE or rebuild of a partition): "Missing FILE_CREATE ... for tablespace N", though its log holds both records',
    doc: 'docs/findings/create-then-rename.md',
    matches: (r) => !ranMysql(r) && refusedCreatedThenRenamed(r),
  },
  'dblwr-unwritten-extent': {
    id: 'dblwr-unwritten-extent',
    title: "MariaDB 10.11 with innodb_flush_method=O_DIRECT_NO_FSYNC never fsyncs ibdata1: doublewrite copies written for the first time into its preallocated doublewrite pages read back as zeros after a power cut, though they reached the device",
    doc: 'docs/findings/dblwr-unwritten-extent.md',
    matches: (r) =>
      !ranMysql(r) &&
      writesPageCopies(r.settings.server.doublewrite) &&
      r.settings.server.flushMethod === 'O_DIRECT_NO_FSYNC' &&
      copyInUnwrittenExtent(r),
  },
};
