/**
 * The server findings the rig has written up (docs/findings/), each with the signature that tells
 * a cycle that hit it from one that failed for another reason. A scenario names the findings it
 * hunts or knows (`findings:` in a campaign file): its judged cycles that match a signature count
 * as hits of that finding; those among them that contradict the expectation are listed as such and
 * do not fail the campaign; a contradiction no signature explains still fails it.
 */
import { writesPageCopies } from '../results/doublewrite-mode.js';
import type { CycleRecord, FlushMethod } from '../results/types.js';
import { serverIdentity } from '../runtime/server-identity.js';

export const FINDING_IDS = ['page0-not-restored', 'o-direct-no-fsync', 'unaligned-16k', 'par-not-synced', 'fsync-checkpoint-race', 'mysql-o-direct-dblwr', 'mysql-trx-sys-page', 'mysql-page0-survey'] as const;
export type FindingId = (typeof FINDING_IDS)[number];

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
      lostToUnflushedCopy(r),
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
};
