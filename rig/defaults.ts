/**
 * Every default of the rig, and nowhere else: what a campaign scenario, `rig cycle`, `rig disk`
 * and `rig repro` get for a setting nobody named, and the bounds the cycle stages and the server
 * runtimes wait with. Server values follow MariaDB's own defaults where it has one (16k pages,
 * O_DIRECT, 128M buffer pool), the disk the measured choices docs/design.md gives under "The disk
 * model" and "The cut" (armed 16, 4k atomic, ext4).
 * The disk (faults/) keeps no defaults: it and its helper are always told every setting.
 */
import type { DiskSettings, Engine, LoadSettings, RecoveryBounds, ScenarioSettings, ServerSettings } from './results/types.js';
import type { TriggerSpec } from '../faults/trigger.js';
import { shippedProfile } from '../faults/device-profile.js';

const MiB = 1024 * 1024;

export const DEFAULT_SERVER: ServerSettings = {
  engine: 'innodb',
  doublewrite: true,
  flushMethod: 'O_DIRECT',
  pageSize: 16384,
  bufferPool: '128M',
  redoSize: '96M',
};

/** The device profile a disk gets when none is named: this machine's disk as it is (faults/profiles/local.yml). */
const DEFAULT_PROFILE = shippedProfile('local');

export const DEFAULT_DISK: DiskSettings = {
  profile: DEFAULT_PROFILE.name,
  model: DEFAULT_PROFILE.device,
  atomicUnit: 4096,
  fs: 'ext4',
  trigger: { kind: 'armed', pendingPageWrites: 16 },
  journalMaxBytes: 256 * MiB, // the cache bound: past it the oldest unflushed writes retire as durable
  sizeBytes: 512 * MiB,
};

/**
 * The trigger for RocksDB tables. They make few InnoDB page writes, so the cut is not aimed at home
 * writes (rig/cycle/stages/load.ts) and counts the pages of every pending write of a page or more:
 * RocksDB writes an SST in a few writes of 256 KiB to 1 MiB, each counting 16 to 64 pages. Measured
 * on MariaDB 11.8.9 (8 MiB memtables, 4 x 5k rows, docker): armed 8 fired 4.4-5.7 s into the load,
 * at the first memtable flush's fsync (6 cycles, ext4 and ext4 bigalloc). When it counted writes
 * instead, armed 8 waited for a flush whose SST happened to leave 8 writes pending: 40-90 s into
 * the load, and once not within 150 s.
 */
export const DEFAULT_ROCKSDB_TRIGGER: TriggerSpec = { kind: 'armed', pendingPageWrites: 8 };

/** The trigger a scenario that names none gets: by the engine of its tables. */
export function defaultTrigger(engine: Engine): TriggerSpec {
  return engine === 'rocksdb' ? DEFAULT_ROCKSDB_TRIGGER : DEFAULT_DISK.trigger;
}

export const DEFAULT_LOAD: LoadSettings = {
  kind: 'builtin',
  connections: 4,
  tables: 4,
  rows: 10_000,
  maxSeconds: 120, // the load gives up (rig-error) if the cut has not come by then
};

/**
 * `rig perf` and `mode: perf`: sysbench oltp_write_only in the shape of the +47% figure (30 tables,
 * 64 threads on 4 cores, --rand-type=special --rand-spec-pct=15), scaled to a 2-core machine: 32
 * threads, 16 tables of 25,000 rows (about 110 MiB with its indexes, prepared in well under a
 * minute) over a 32 MiB buffer pool, so most page writes are evictions as in the figure's 300 GB.
 * Each run starts from the prepared image, so the first seconds read pages in on both settings.
 */
export const DEFAULT_PERF = {
  repetitions: 3,
  seconds: 60,
  connections: 32, // sysbench threads
  tables: 16,
  rows: 25_000,
  bufferPool: '32M',
  size: '1G',
  randSpecPct: 15,
  flushing: 'stock', // the server's own page flushing: what doublewrite costs as users run servers
} as const;

export const DEFAULT_RUNTIME: ScenarioSettings['runtime'] = 'local';

/**
 * How long the recovering server may take to answer, and the checks on it to finish; and how long
 * it may stall before it answers (no I/O, next to no CPU): a server hung on a page it cannot read
 * sleeps from the moment it hangs, so the stall ends it long before the start bound would.
 */
export const DEFAULT_RECOVERY_BOUNDS: RecoveryBounds = { startMs: 120_000, checksMs: 600_000, stallMs: 15_000 };

/** What the server runtimes wait for: a datadir initialised, a clean start (fresh datadir or
 * prepared image, no recovery to do), a clean shutdown, and a killed process to be gone. */
export const SERVER_BOUNDS = { initializeMs: 180_000, startMs: 120_000, shutdownMs: 120_000, killMs: 15_000 };

/** Room a datadir needs besides its redo log (system tablespace, undo logs, the dataset), at the least. */
export const DATADIR_SLACK_BYTES = 64 * MiB;

/** The seed when none is named: a campaign's, and that of a single cycle (`rig cycle`, `rig disk down`). */
export const DEFAULT_SEED = 1;
export const DEFAULT_CYCLES = 3;
/** mode: explore, when a scenario names neither: states judged per recording, and how they are picked. */
export const DEFAULT_EXPLORE = { states: 50, pick: 'targeted' } as const;
/** mode: explore, when a scenario names no trigger: the cut ends a recording of about 6 s (the
 * page cleaner's batches come about once a second, and targeted picks want several of them). */
export const DEFAULT_EXPLORE_TRIGGER: TriggerSpec = { kind: 'at-time', ms: 5000 };
export const DEFAULT_EVIDENCE_MAX_BYTES = 2048 * MiB;
