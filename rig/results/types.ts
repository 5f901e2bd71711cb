/**
 * The saved shape of a run: one CycleRecord per crash cycle (DIR/cycle.json for `rig cycle`),
 * and CampaignResults for a campaign (DIR/results.json). Reports render from these alone. What
 * the disk itself records (filesystems, triggers, pending writes, its counters) is typed in faults/.
 */
import type { DiskBackend } from '../../faults/disk-record.js';
import type { DeviceModel } from '../../faults/device-model.js';
import type { FindingId } from './finding-ids.js';
import type { DoublewriteSetting } from './doublewrite-mode.js';
import type { LoadMix } from './load-kinds.js';
import type { Fate, FatePolicy, PendingWrite } from '../../faults/crash-plan.js';
import type { FsKind } from '../../faults/filesystems.js';
import type { DiskCut } from '../../faults/helper-status.js';
import type { PerfPairRecord } from './perf-pair-record.js';
import type { TriggerSpec } from '../../faults/trigger.js';
import type { RedoFileOps } from '../pages/redo-file-ops.js';
import type { EvidenceNote, EvidencePolicy } from './evidence-note.js';

/** One cycle's outcome: what rig/cycle/judge.ts concluded (meanings in its header comment). */
export type Verdict =
  | 'no-torn'
  | 'restored'
  | 'detected'
  | 'refused'
  | 'wal-tail-refused'
  | 'crashed'
  | 'hung'
  | 'shutdown-crash'
  | 'reported-corruption'
  | 'silent-corruption'
  | 'lost-commit'
  | 'rig-error';

export const EXPECTATIONS = ['recovers', 'never-torn', 'torn-reproduced', 'detects', 'commits-kept'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

/** The innodb_flush_method values a scenario may run (the server's unsafe nosync and littlesync are left out). */
export const FLUSH_METHODS = ['O_DIRECT', 'O_DIRECT_NO_FSYNC', 'fsync', 'O_DSYNC'] as const;
/**
 * How hard the page cleaner is driven. eager: innodb_max_dirty_pages_pct=5 (its low-water mark 1)
 * and innodb_io_capacity=2000, so batches of page writes are in flight within seconds of load,
 * where a cut can find them; stock: the server's own defaults, as a production server runs.
 */
export const FLUSHINGS = ['eager', 'stock'] as const;
export type Flushing = (typeof FLUSHINGS)[number];
export type FlushMethod = (typeof FLUSH_METHODS)[number];

/** The innodb_page_size values the server supports, in bytes. */
export const PAGE_SIZES: readonly number[] = [4096, 8192, 16384, 32768, 65536];

/** The storage engine of the load's tables (the system tables stay the server's own). */
export const ENGINES = ['innodb', 'rocksdb'] as const;
export type Engine = (typeof ENGINES)[number];

export interface ServerSettings {
  /** innodb, or rocksdb: MyRocks (MariaDB's ha_rocksdb plugin) holds the sbtest, ledger and history tables. */
  engine: Engine;
  /**
   * innodb_doublewrite: on, off, 'fast' (MariaDB 11.x: like on, without syncing data files),
   * 'detect-only' or 'detect-and-recover' (MySQL 8.0.30+: ids and LSNs only, or the same as on).
   */
  doublewrite: DoublewriteSetting;
  flushMethod: FlushMethod; // innodb_flush_method
  pageSize: number; // innodb_page_size in bytes
  bufferPool: string; // innodb_buffer_pool_size, e.g. 64M
  redoSize: string; // innodb_log_file_size, or MySQL 8.0.30+'s innodb_redo_log_capacity, e.g. 96M
  /** Page flushing (FLUSHINGS); absent: eager, as every crash cycle runs. `rig perf` runs stock unless told. */
  flushing?: Flushing;
}

export interface DiskSettings {
  /** The device profile's name (faults/profiles/, or a profile file's name without .yml). */
  profile: string;
  /** What the profile says the device is: its write cache (volatile or durable) and timing. */
  model: DeviceModel;
  atomicUnit: number; // bytes: 512 .. 65536
  fs: FsKind;
  trigger: TriggerSpec;
  journalMaxBytes: number;
  sizeBytes: number;
  /** Where the cut happens (faults/dm/): absent is the FUSE helper, as before there was a choice. */
  backend?: DiskBackend;
  /** The weights each pending write's fate is drawn with at the cut (faults/crash-plan.ts); absent:
   * DEFAULT_POLICY. `{tear: 1}` tears every write that spans two atomic units or more. */
  fates?: FatePolicy;
}

export interface LoadSettings {
  kind: 'builtin' | 'sysbench';
  connections: number;
  tables: number;
  rows: number;
  maxSeconds: number; // the load gives up (rig-error) if the cut has not fired by then
  /** The builtin load's kinds of step and their weights; absent: write-only alone (rig/load/load-mix.ts). */
  mix?: LoadMix;
}

/** Where the server runs: the host's own binary, or an image (rig/runtime/). */
export const RUNTIMES = ['local', 'docker'] as const;

export interface ScenarioSettings {
  name: string;
  runtime: (typeof RUNTIMES)[number];
  image?: string; // docker runtime only
  server: ServerSettings;
  disk: DiskSettings;
  load: LoadSettings;
  expect: Expectation;
  /** The share of judged cycles that must exercise the scenario's claim (rig/results/exercise-claim.ts). */
  exercise?: { minShare: number };
  /** Written-up findings the scenario hunts or knows: their hits do not fail the campaign (rig/findings/catalog.ts). */
  findings?: FindingId[];
  /** mode: explore. Each cycle records one load run and judges this many crash states from it. */
  explore?: { states: number; pick: ExplorePick };
  /** mode: perf. Each cycle is one pair of sysbench runs, doublewrite on then off (rig/perf/). */
  perf?: { seconds: number };
}

/** Where a page-size write went, by the crash image's extent map (rig/cycle/straddle-targets.ts). */
export type WriteTarget = 'tablespace' | 'redo' | 'other' | 'filesystem';

/** The straddling page writes by what they wrote; `unlisted`: past the helper's list of offsets. */
export type StraddleTargets = Record<WriteTarget | 'unlisted', number>;

/** The disk's account of the cut, and what its straddling page writes wrote. */
export interface CutSummary extends DiskCut {
  straddled?: StraddleTargets; // set once the crash image's extent map is known
}

export type Attribution = 'doublewrite' | 'redo' | 'unexplained';

/** A doublewrite copy of a torn page, judged by the server's rules (rig/cycle/doublewrite-rules.ts). */
export interface DoublewriteCopyEvidence {
  source: string; // ./ibdata1 or ./#ib_16384_0.dblwr
  slot: number; // page number in ibdata1, or slot in a .dblwr file
  lsn: number;
  valid: boolean;
  accepted: boolean; // the server's recovery would use it
  why: string;
}

export interface DoublewriteEvidence {
  checkpointLsn: number | null; // from the crash image's redo log header; null when unread
  copies: DoublewriteCopyEvidence[];
  restorable: boolean; // an accepted copy exists and the page's own rules allow its use
  why: string; // one line: which copy, or why none
  /** Copies of the page's newest version still unflushed at the cut (rig/cycle/copies-in-flight.ts). */
  inFlight?: CopyInFlight[];
  /** Pending writes that overwrote a copy of the page's newest version (rig/cycle/copies-in-flight.ts). */
  overwritten?: CopyOverwritten[];
  /**
   * Copies of the page on the device in doublewrite slots the crash image's filesystem reads as
   * zeros: written there, but the extent is still marked unwritten (rig/pages/unwritten-copies.ts).
   * Judged by the same rules as `copies`, as if the server could read them; `wouldRestore`: with
   * them readable, the page would be restorable.
   */
  unwritten?: { copies: DoublewriteCopyEvidence[]; wouldRestore: boolean };
  /** MySQL DETECT_ONLY: the newest LSN the reduced doublewrite file (.bdblwr) names the page at. */
  reducedLsn?: number;
}

/** A pending write that carried a doublewrite copy of a torn page's newest version. */
export interface CopyInFlight {
  seq: number; // the write's journal sequence number
  fate: Fate; // what the crash plan made of it
  /** A home write of the page came after it with no flush between: the copy was not durable first. */
  beforeHomeWrite: boolean;
}

/** A pending write that overwrote a doublewrite copy of a torn page's newest version. */
export interface CopyOverwritten {
  seq: number; // the write's journal sequence number
  fate: Fate; // what the crash plan made of it
  /** A home write of the page came before it with no flush between: the slot was reused before the home write was durable. */
  afterHomeWrite: boolean;
}

/** A page the crash image held torn (its bytes come from versions of the page that differ). */
export interface TornPage {
  file: string; // path relative to the datadir, e.g. ./db/sbtest1.ibd
  space: number | null;
  page: number;
  unitsNew: boolean[]; // per atomic-unit piece the pending writes touched: true = holds the newest version
  writes: number; // pending writes that touched the page
  durableLsn: number | null; // LSN of the version durable before the pending writes
  newestLsn: number | null; // LSN of the newest version written to it before the cut
  /** The newest version's content digest (rig/pages/page-format.ts pageContentDigest), when the
   * pending writes covered the whole page. */
  newestDigest?: string;
  invalidBefore: string | null; // the verifier's reason, null if the torn page still verified
  validAfter: boolean | null; // null when the server did not recover or the page was not scanned
  lsnAfter: number | null; // the page's LSN after recovery
  /** Valid after recovery and at least as new as the newest version written before the cut, by its
   * LSN or, under an older LSN, by holding the same content (`currentBy`). */
  currentAfter: boolean | null;
  /** How a current page showed it: `content` when its LSN is older than the newest version's. */
  currentBy?: 'lsn' | 'content';
  attribution: Attribution | null; // for pages valid after recovery
  doublewrite: DoublewriteEvidence;
  /** Still invalid after recovery, but the tablespace has freed the page (or dropped the file): it holds no data. */
  freedAfter?: boolean;
  /** The crash image's extent descriptors already marked the page free: it held no data. */
  freedBefore?: boolean;
  /** For page 0 of a tablespace file: how the server finds its copy, pages 1-3, what it logged. */
  page0?: Page0Evidence;
  /** Invalid with no pending write to tear it, and the order log shows it reached the disk in
   * pieces (page-cache writeback): the durable writes its bytes came from last, the writes that
   * carried only part of it, and whether some bytes are older than the log's window. */
  inPieces?: { lastWriters: number[]; partialWrites: number[]; bytesBeforeWindow: boolean };
  /** Invalid because part of it lies in an extent the crash image still marks unwritten (those
   * bytes read as zeros; the filesystem's record of the write was not durable). */
  partlyUnwritten?: { unwrittenBytes: number };
}

/**
 * How the server looks up a torn page 0's doublewrite copy: by the space id in the page's own
 * header, through pages 1-3 of the file (MariaDB), through a survey of the first 64 pages
 * (MySQL), as the system tablespace's page, or not at all.
 */
export type Page0Path = 'header' | 'pages-1-3' | 'survey' | 'system' | 'none';

export interface Page0Evidence {
  path: Page0Path;
  headerSpaceId: number | null; // the space id the torn page's headers agree on, null if they do not
  firstPages: { page: number; state: 'valid' | 'invalid' | 'zero' | 'missing' }[];
  /** MySQL: the space id survey of the file's first 64 pages (rig/cycle/mysql-space-survey.ts). */
  survey?: { analyzed: number; valid: number; chosen: number | null; matched: number };
  /**
   * MariaDB: whether the redo log after the checkpoint holds a WRITE to this tablespace's page 0
   * that changes its size or flags (recovery then reads page 0, from the doublewrite copy when it
   * is torn): which of the two such writes cover, and the LSN of the first one's mini-transaction.
   * null: the log was read and holds none; absent: not known (MySQL, a log older than 10.8, a page
   * of no known tablespace, or a record written before the rig read it).
   */
  redoHeader?: { size: boolean; flags: boolean; lsn: number } | null;
  serverLog: string[]; // the server's log lines about this page 0, each once (xN when repeated)
  finding: string | null; // set when the server's rules accept a copy and the page was not restored
}

/**
 * What a cycle exercised, from the evidence (rig/results/exercised.ts): the torn pages that held
 * data, split by what could restore them, and the page writes in flight at the cut.
 */
export interface Exercised {
  /** In-use torn pages with a doublewrite copy the server's rules accept (doublewrite.restorable). */
  tornDoublewrite: number;
  /** In-use torn pages with no accepted copy: only the redo log can rebuild them. */
  tornRedo: number;
  /** Torn pages the tablespace had freed (before the cut or by the end of recovery): they hold no data. */
  tornFreed: number;
  /** Page-size writes pending at the cut, and those of them that crossed an atomic-unit boundary. */
  pageWritesInFlight: number;
  pageWritesInFlightStraddling: number;
  /** Engine rocksdb: writes pending at the cut into RocksDB's files (its log, SST, MANIFEST). */
  rocksdbWritesInFlight?: number;
}

/** Every page a pending write touched, by class (rig/cycle/page-truth.ts). */
export interface TruthCounts {
  torn: number;
  whole: number;
  unwritten: number;
  'doublewrite-area': number;
}

/**
 * Page 0 of a tablespace file that writes pending at the cut touched (rig/cycle/page-zero.ts): its
 * space header and first extent descriptors, which DDL and file growth change and which the
 * server's own rules treat apart when it is torn.
 */
export interface PageZeroWrite {
  file: string; // e.g. ./sbtest/churn_c1_t1.ibd, ./ibdata1
  writes: number; // pending writes that touched it
  class: 'torn' | 'whole' | 'unwritten'; // what the crash image made of it (rig/cycle/page-truth.ts)
}

/** The pre-recovery scan held against the truth: any page in one list and not the other. */
export interface Reconciliation {
  ok: boolean;
  invalidNotTorn: string[]; // "./db/t.ibd page 7: checksum-mismatch"
  tornButValid: string[];
  explained: string[]; // differences the record explains (file format unreadable, file not verified)
  /** Files whose page 0 held only zeros (not written yet), and the format and space id they were verified in. */
  blankPage0?: string[];
}

export interface InvalidPage {
  file: string;
  space: number | null;
  page: number;
  reason: string;
  free?: boolean; // the tablespace's extent descriptors mark the page free (it holds no data)
}

export type LogEventKind =
  | 'corruption'
  | 'rocksdb-wal'
  | 'doublewrite-restore'
  | 'lsn-in-future'
  | 'abort'
  | 'recovery-start'
  | 'recovery-done'
  | 'ready'
  | 'error';

export interface LogEvent {
  line: number; // 1-based line number in the error log
  kind: LogEventKind;
  text: string;
  space?: number; // tablespace id, when the line names one
  page?: number; // page number, when the line names one
  file?: string; // tablespace file as the server wrote it, e.g. ./sbtest/sbtest1.ibd
}

/** A stage of the recovery server's run: starting (until it answers), the checks, the shutdown. */
export type ServerStage = 'start' | 'checks' | 'shutdown';

/**
 * How long the recovering server may take to answer after starting, and the checks to finish; and
 * how long it may stall before it answers (no I/O, next to no CPU: rig/runtime/stall-watch.ts),
 * 0 or absent (records from before it) for no stall check.
 */
export interface RecoveryBounds {
  startMs: number;
  checksMs: number;
  stallMs?: number;
}

/**
 * A server that stalled while it started: the quiet window's start (after the server's), its
 * length, and the CPU its threads used in it (rig/runtime/stall-watch.ts).
 */
export interface StallSeen {
  afterMs: number;
  forMs: number;
  cpuMs: number;
}

/** What the recovery server process did, as the rig saw it. */
export interface RecoveryRun {
  bounds: RecoveryBounds;
  readyMs: number | null; // from start to the first answer; null when it never answered
  endedIn: ServerStage; // the stage in which the process ended
  timedOut: ServerStage | null; // the stage whose bound passed; the rig then killed the server
  exit: { exitCode: number | null; signal: string | null } | null; // null: the end was not seen
  shutdown: 'clean' | 'failed' | 'not-reached'; // clean: SHUTDOWN ended with exit code 0
  checksError?: string; // the error that ended the checks early
  stalled?: StallSeen; // timedOut 'start' because it stalled before its bound: what the rig saw
}

/**
 * A tablespace page whose pending (unflushed) version at the cut was older than the checkpoint
 * durable before the cut, over a durable version older still (rig/cycle/write-order.ts).
 */
export interface WriteOrderViolation {
  file: string;
  page: number;
  durableLsn: number; // LSN of the durable version (0: all zeros, or an unwritten extent)
  pendingLsn: number; // LSN of the newest pending version below the checkpoint
  seq: number; // the pending write that brought it (journal seq)
  offset: number; // its device offset
  length: number;
  coveredWrites: number; // pending writes of the page with an LSN between the two
  free: boolean | null; // the crash image's extent descriptors mark the page free; null: cannot tell
  unwritten?: boolean; // the page sits in an extent the crash image marks unwritten
  arrivedUs?: number; // when the disk journaled the write (wall clock, µs), from its order log
}

/** From the disk's order log (faults/order-log.ts): times are the disk's wall clock in µs. */
export interface DeviceOrder {
  events: number; // events the log kept (the latest ones)
  firstEventUs: number | null;
  cutUs: number | null;
  /** The last write over the durable checkpoint block that was not pending; null: before the log's window. */
  checkpointWrite: { seq: number; atUs: number } | null;
  /** What made that write durable: the first flush after it, the journal bound retiring it, or (a durable cache) its completion. */
  checkpointDurableAt: { by: 'flush' | 'retire' | 'complete'; flush: number | null; boundary: number; atUs: number } | null;
  lastFlush: { flush: number; boundary: number; atUs: number } | null;
  flushesSinceCheckpoint: number | null; // flushes completed after the one that made the checkpoint durable
  retired: number; // writes the journal bound retired as durable within the window
}

/** The write-ahead order the device saw: an ordering violation observed at the device, not a verdict. */
export interface WriteOrderCheck {
  checkpointLsn: number | null; // durable before the cut (every pending write undone); null: unread
  why?: string; // why the checkpoint is unknown
  pagesChecked: number; // live tablespace pages with a pending write carrying their LSN
  pendingVersions: number; // such pending writes
  violationCount: number; // pages
  violations: WriteOrderViolation[]; // the first of them by write seq (at most 64)
  device?: DeviceOrder; // what the disk's order log adds, when it kept one
}

/** A cycle's stages, in the order they run (rig/cycle/run-cycle.ts). */
export const PHASES = ['prepare', 'load', 'cut', 'materialize', 'scanBefore', 'recover', 'scanAfter', 'judge'] as const;
export type Phase = (typeof PHASES)[number];

/** The lifecycle steps (churn, alter, partitions, partition-truncate, bulk, survey-bait) held against the recovered tables (rig/checks/lifecycle.ts). */
export interface LifecycleSteps {
  acked: number; // steps acknowledged during the load
  missing: number; // acknowledged steps whose effect is gone after recovery
  lost: string[]; // one line per table that lost steps
}

/** One crash cycle's record: its settings, its verdict and why, and the evidence behind them
 * (`rig cycle`'s cycle.json, and each line of a campaign's cycles.jsonl). */
export interface CycleRecord {
  id: string; // unique in a campaign, safe as a folder name: <scenario>-<cycle>
  scenario: string;
  cycle: number;
  seed: number;
  settings: ScenarioSettings;
  verdict: Verdict;
  expectation: Expectation;
  expectationHeld: boolean;
  reason: string; // one line: why this verdict
  cut: CutSummary | null;
  pendingWrites: PendingWrite[];
  tornPagesBefore: TornPage[];
  pagesTouched: TruthCounts | null; // pages the pending writes touched, by class
  /** Page 0 of each tablespace the pending writes touched (absent in older records). */
  pageZeroWrites?: PageZeroWrite[];
  reconciliation: Reconciliation | null;
  checkpointLsn: number | null; // of the crash image's redo log
  /** MariaDB 10.8+: the file operations (create, rename, delete) the crash image's redo log holds
   * from its checkpoint to its end (rig/pages/redo-file-ops.ts). */
  redoFileOps?: RedoFileOps;
  /** The write-ahead order at the device (absent in records saved before the check existed). */
  writeOrder?: WriteOrderCheck | null;
  pagesAfter: InvalidPage[]; // pages still invalid after recovery
  attribution: Record<Attribution, number>;
  exercised: Exercised | null; // null until the crash image was scanned
  ledger: { checked: boolean; acked: number; missing: number; note?: string; error?: string; steps?: LifecycleSteps }; // error: the server could not read it
  checkTable: { tables: number; failed: string[] };
  /** Data invariants of the load (rig/checks/invariants.ts): each broken one is a line. */
  invariants: { checked: boolean; violations: string[] };
  serverStarted: boolean;
  recovery: RecoveryRun | null; // null when the cycle did not reach recovery (absent in older records)
  errorLog: { excerpt: string; events: LogEvent[] };
  throughput: { tMs: number; commits: number }[]; // commits acknowledged per bucket
  crashImageSha256: string | null; // a live cycle's (and a shrunk one's) crash image
  /** An explore state's crash image: the sha256 of its blocks' sha256s (rig/explore/image-hash.ts). */
  crashImageBlocksSha256?: string;
  /** The blocks of crashImageBlocksSha256, bytes (absent: 4 MiB, the records written before it). */
  crashImageDigestBlock?: number;
  timings: Partial<Record<Phase, number>>; // milliseconds
  evidenceDir: string | null; // relative to the results folder, when evidence was kept
  /** Why the evidence was kept, or why not (rig/campaign/evidence-policy.ts; absent in older records). */
  evidence?: EvidenceNote;
  repro: string; // the command that rebuilds this crash image
  error?: string; // for rig-error: what failed
  /** Engine rocksdb: the writes pending at the cut into RocksDB's files (absent for InnoDB tables). */
  rocksdbWrites?: RocksdbWrites;
  /** The server that ran the cycle and the InnoDB options its settings mapped to (absent in older records). */
  server?: { version: string; innodb: string[] };
  /** A crash state judged from a recording (`rig explore`), not a live cut: where it came from. */
  explore?: ExploreState;
  /** A crash state `rig shrink` cut down from a failing one: what it was shrunk from, and how far. */
  shrunk?: ShrunkFrom;
}

/** The shrink that made a state: its source, the failure kept, the writes and torn pages before and after. */
export interface ShrunkFrom {
  from: string; // the failing cycle's folder
  failure: string; // the failure kept, as rig/shrink/failure-signature.ts describes it
  writesBefore: number; // pending writes that did not land (dropped or torn), in the source's plan
  writesAfter: number;
  tornBefore: number;
  tornAfter: number;
  trials: number; // recoveries judged, the two confirmations included
  ms: number;
  /** 1-minimal: landing any one more of the writes makes the failure go away. */
  minimal: boolean;
  stopped: 'bound' | 'signal' | null; // why the search ended early, if it did
}

export const EXPLORE_PICKS = ['every', 'sample', 'targeted'] as const;
export type ExplorePick = (typeof EXPLORE_PICKS)[number];

/** Where an explore state came from: its recording, its barrier, how it was picked. */
export interface ExploreState {
  recording: string; // the recording's folder, relative to this state's folder
  barrier: number; // flush k of the recording (1-based), or the cut after its last flush
  barrierKind: 'flush' | 'cut';
  barriers: number; // barriers in the recording with writes pending
  tUs: number; // when the barrier reached the disk (monotonic microseconds)
  durableWrites: number; // recorded writes durable at the barrier
  pick: ExplorePick;
  run: string; // the campaign cycle that recorded the load run (<scenario>-<cycle>)
  runSeed: number; // that cycle's seed (the load's, and the picks')
  of: number; // states picked from the recording
  score?: number; // targeted picks: what the barrier offered the claim (rig/explore/state-targets.ts)
  duplicateOf?: string; // a state with the same crash image, judged once
}

/** Writes pending at the cut into one kind of RocksDB file, by fate (rig/cycle/rocksdb-writes.ts). */
export interface RocksdbFileWrites {
  files: string[]; // relative to the datadir, e.g. ./#rocksdb/000004.log
  landed: number;
  dropped: number;
  torn: number;
}

/** Pending writes at the cut into RocksDB's write-ahead log and into its other files (SST, MANIFEST). */
export interface RocksdbWrites {
  wal: RocksdbFileWrites;
  other: RocksdbFileWrites;
}

export interface ScenarioSummary {
  name: string;
  settings: ScenarioSettings;
  expectation: Expectation;
  cyclesPlanned: number;
  cyclesRun: number;
  /** mode: perf: the pairs of runs planned (they are in results.perf, not cycles; absent in older results). */
  pairsPlanned?: number;
  verdictCounts: Partial<Record<Verdict, number>>;
  tornCycles: number; // cycles whose crash image held at least one torn page
  /** Cycles whose cut had a write pending on page 0 of an .ibd (absent in older results). */
  pageZeroCycles?: number;
  /** Of those, the cycles with one on page 0 of a table a lifecycle kind made. */
  lifecyclePageZeroCycles?: number;
  held: boolean; // every cycle met the expectation (and a negative control was not blind)
  blind: boolean; // a torn-reproduced or detects scenario whose cycles never tore a page
  /** What the scenario claims and how many judged cycles exercised it; null when it claims nothing checkable. */
  exercise?: ExerciseSummary | null;
  vacuous?: boolean; // fewer cycles exercised the claim than the scenario's minShare
  /** The scenario's known findings and how many of its judged cycles hit each. */
  findings?: FindingHits[];
  failures: string[]; // one line each
}

export interface FindingHits {
  id: FindingId;
  title: string;
  doc: string;
  hits: number; // judged cycles that show the finding's signature (the first of the scenario's findings that matches)
  of: number; // judged cycles (rig errors excluded)
}

export interface ExerciseSummary {
  claim: 'doublewrite' | 'page-writes-in-flight' | 'in-use-torn' | 'rocksdb-writes-in-flight';
  cycles: number; // judged cycles that exercised the claim
  of: number; // judged cycles (rig errors excluded)
  minShare: number | null; // null: no share is required (a negative control has `blind`)
}

export interface Environment {
  server: string; // e.g. mariadbd
  serverVersion: string;
  kernel: string;
  node: string;
  rigVersion: string;
  hostname: string;
}

/** The version of results.json a campaign writes now. Version 1 held every cycle record in it; from
 * version 2 on it holds the summary and names the file of cycle records (results-file.ts). */
export const RESULTS_VERSION = 2;

/** A campaign's results in memory: the summary and every cycle record. */
export interface CampaignResults {
  version: typeof RESULTS_VERSION;
  campaign: string;
  file: string;
  commandLine: string;
  startedAt: string; // ISO
  finishedAt: string | null;
  shard: { index: number; count: number } | null;
  seed: number;
  environment: Environment;
  scenarios: ScenarioSummary[];
  cycles: CycleRecord[];
  /** mode: perf scenarios' pairs of runs, in the campaign's order (absent: the campaign had none). */
  perf?: PerfPairRecord[];
  /** Which cycles the campaign asked to keep evidence for, under what cap (absent in older results). */
  evidence?: EvidencePolicy;
  outcome: 'pass' | 'fail' | 'rig-error' | 'running';
  cyclesPerHour: number | null;
}

/** results.json as written (version 2): the campaign's summary; its cycle records are in
 * `cycles.file` (beside it), one JSON record per line in the campaign's order, `cycles.count` of them. */
export interface ResultsSummary extends Omit<CampaignResults, 'cycles'> {
  cycles: { file: string; count: number };
}
