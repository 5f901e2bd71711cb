/**
 * `rig cycle`'s settings flags. Each sets one campaign key, and the flags become a one-scenario
 * campaign: they are checked exactly as campaign files are, a flag not given takes the default a
 * campaign would (rig/defaults.ts), and a problem is named by its flag.
 */
import { Option } from 'commander';
import { oneOf } from '../../faults/checked.js';
import { DEFAULT_POLICY } from '../../faults/crash-plan.js';
import { DISK_BACKENDS } from '../../faults/disk-record.js';
import { DATADIR_FILESYSTEMS } from '../../faults/filesystems.js';
import { ATOMIC_UNITS, showSize } from '../../faults/sizes.js';
import { formatTrigger } from '../../faults/trigger.js';
import { shippedProfile, shippedProfileNames } from '../../faults/device-profile.js';
import { campaignFrom } from '../campaign/load-campaign.js';
import { formatPath } from '../campaign/issue-message.js';
import { loadSchema } from '../campaign/schema.js';
import type { PlannedScenario } from '../campaign/types.js';
import { DEFAULT_DISK, DEFAULT_EXPLORE, DEFAULT_EXPLORE_TRIGGER, DEFAULT_PERF, DEFAULT_LOAD, DEFAULT_RECOVERY_BOUNDS, DEFAULT_ROCKSDB_TRIGGER, DEFAULT_RUNTIME, DEFAULT_SEED, DEFAULT_SERVER } from '../defaults.js';
import { badInput } from '../errors.js';
import { DOUBLEWRITE_MODES, doublewriteMode } from '../results/doublewrite-mode.js';
import { ENGINES, EXPECTATIONS, EXPLORE_PICKS, FLUSH_METHODS, FLUSHINGS, RUNTIMES, type RecoveryBounds } from '../results/types.js';

interface ScenarioFlag {
  key: string; // the campaign key it sets, relative to the scenario
  flag: string; // as commander spells it
  help: string;
  shown?: string; // the default, for the help text
  numeric?: boolean;
}

const [server, disk, load] = [DEFAULT_SERVER, DEFAULT_DISK, DEFAULT_LOAD];

export const SCENARIO_FLAGS: ScenarioFlag[] = [
  { key: 'server.engine', flag: '--engine <engine>', help: `storage engine of the load's tables: ${oneOf(ENGINES)} (rocksdb: MariaDB with its RocksDB plugin)`, shown: server.engine },
  { key: 'server.doublewrite', flag: '--doublewrite <mode>', help: `InnoDB doublewrite buffer: ${oneOf(DOUBLEWRITE_MODES)} (fast: MariaDB 11.x; detect-*: MySQL 8.0.30+)`, shown: doublewriteMode(server.doublewrite) },
  { key: 'server.pageSize', flag: '--page-size <size>', help: 'innodb_page_size', shown: showSize(server.pageSize) },
  { key: 'server.flushMethod', flag: '--flush-method <method>', help: `innodb_flush_method: ${oneOf(FLUSH_METHODS)}`, shown: server.flushMethod },
  { key: 'server.bufferPool', flag: '--buffer-pool <size>', help: 'innodb_buffer_pool_size', shown: server.bufferPool },
  { key: 'server.redoSize', flag: '--redo-size <size>', help: 'innodb_log_file_size (MySQL 8.0.30+: innodb_redo_log_capacity)', shown: server.redoSize },
  { key: 'server.flushing', flag: '--flushing <how>', help: `page flushing: ${oneOf(FLUSHINGS)} (eager: max_dirty_pages_pct=5, io_capacity=2000, page writes in flight within seconds; stock: the server's defaults)`, shown: 'eager' },
  { key: 'disk.profile', flag: '--profile <name|file>', help: `device profile: its write cache and timing, ${oneOf(shippedProfileNames())} (faults/profiles/) or a profile file`, shown: disk.profile },
  { key: 'disk.atomic', flag: '--atomic <unit>', help: `atomic write unit of the disk: ${oneOf(ATOMIC_UNITS.map(showSize))}`, shown: showSize(disk.atomicUnit) },
  { key: 'disk.fs', flag: '--fs <fs>', help: `filesystem: ${oneOf(DATADIR_FILESYSTEMS)}`, shown: disk.fs },
  { key: 'disk.trigger', flag: '--trigger <trigger>', help: "cut trigger: 'armed N', 'after-writes N', 'at-time 5s'", shown: `${formatTrigger(disk.trigger)}; engine rocksdb: ${formatTrigger(DEFAULT_ROCKSDB_TRIGGER)}` },
  { key: 'disk.cacheBound', flag: '--cache-bound <size>', help: 'unflushed data the disk keeps; past it the oldest writes retire as durable', shown: showSize(disk.journalMaxBytes) },
  { key: 'disk.size', flag: '--size <size>', help: 'disk size', shown: showSize(disk.sizeBytes) },
  { key: 'disk.fates', flag: '--fates <weights>', help: "how pending writes fare at the cut: 'tear=1' (every write that can tear, tears) or 'land=2,drop=1,tear=1'", shown: `land=${DEFAULT_POLICY.land},drop=${DEFAULT_POLICY.drop},tear=${DEFAULT_POLICY.tear}` },
  { key: 'disk.backend', flag: '--backend <backend>', help: `where the cut happens: ${oneOf(DISK_BACKENDS)} (dm: the kernel's dm-log-writes and dm-flakey)`, shown: 'fuse' },
  { key: 'load.kind', flag: '--load <kind>', help: `the write load: ${oneOf(loadSchema.shape.kind.unwrap().options)}`, shown: load.kind },
  { key: 'load.mix', flag: '--mix <kinds>', help: "the builtin load's kinds of step: 'write-only,churn' (equal weights) or 'write-only=4,churn=1,alter=1,partitions=1,bulk=1'", shown: 'write-only' },
  { key: 'load.connections', flag: '--connections <n>', help: 'client connections', shown: String(load.connections), numeric: true },
  { key: 'load.tables', flag: '--tables <n>', help: 'sbtest tables', shown: String(load.tables), numeric: true },
  { key: 'load.rows', flag: '--rows <n>', help: 'rows per table', shown: String(load.rows), numeric: true },
  { key: 'load.maxSeconds', flag: '--max-seconds <n>', help: 'give up (rig-error) if the cut has not come by then', shown: String(load.maxSeconds), numeric: true },
  { key: 'expect', flag: '--expect <expectation>', help: oneOf(EXPECTATIONS), shown: 'from the settings' },
  { key: 'runtime', flag: '--runtime <runtime>', help: oneOf(RUNTIMES), shown: DEFAULT_RUNTIME },
  { key: 'image', flag: '--image <image>', help: 'server image (docker runtime)' },
];

/**
 * The cycle's settings flags as `rig explore` takes them: its own default trigger, and where it
 * refuses a value the cycle takes (rig/explore/explore-refusal.ts, faults/dm/dm-preflight.ts),
 * the help says so beside the flag.
 */
export function exploreScenarioFlags(): ScenarioFlag[] {
  const explore: Record<string, Partial<ScenarioFlag>> = {
    'disk.trigger': { shown: formatTrigger(DEFAULT_EXPLORE_TRIGGER) },
    'disk.profile': { help: `device profile with a volatile write cache (explore refuses a durable one): ${oneOf(shippedProfileNames().filter(volatileProfile))} or a profile file` },
    'disk.backend': { help: 'where the cut happens: fuse (explore records every write through the FUSE helper)' },
    'load.mix': { help: "the builtin load's kinds of step: write-only (explore refuses the lifecycle kinds, which keep no timeline)" },
  };
  return SCENARIO_FLAGS.map((f) => ({ ...f, ...explore[f.key] }));
}

function volatileProfile(name: string): boolean {
  return shippedProfile(name).device.cache === 'volatile';
}

/** `rig explore`'s own flags: how many crash states of its recording to judge, and which. */
export const EXPLORE_FLAGS: ScenarioFlag[] = [
  { key: 'states', flag: '--states <n>', help: 'crash states to judge from the recording', shown: String(DEFAULT_EXPLORE.states), numeric: true },
  { key: 'pick', flag: '--pick <how>', help: `which states: ${oneOf(EXPLORE_PICKS)} (targeted: those that exercise the scenario's claim)`, shown: DEFAULT_EXPLORE.pick },
];

/** `rig perf`'s own flag: how long each run of a pair lasts. */
export const PERF_FLAGS: ScenarioFlag[] = [
  { key: 'seconds', flag: '--seconds <n>', help: 'length of each sysbench run', shown: String(DEFAULT_PERF.seconds), numeric: true },
];

/** The cycle's other flags: its seed and the recovery's bounds. */
const SEED: ScenarioFlag = { key: 'seeds', flag: '--seed <seed>', help: 'seed for the load and the fates of pending writes', shown: String(DEFAULT_SEED) };
const RECOVERY_TIMEOUT: ScenarioFlag = { key: 'recoveryTimeout', flag: '--recovery-timeout <seconds>', help: 'the recovering server must answer within this (else: hung)', shown: String(DEFAULT_RECOVERY_BOUNDS.startMs / 1000) };
const CHECK_TIMEOUT: ScenarioFlag = { key: 'checkTimeout', flag: '--check-timeout <seconds>', help: 'the ledger and CHECK TABLE checks must finish within this (else: hung)', shown: String(DEFAULT_RECOVERY_BOUNDS.checksMs / 1000) };
const STALL_TIMEOUT: ScenarioFlag = { key: 'stallTimeout', flag: '--stall-timeout <seconds>', help: 'a recovering server that stalls this long before it answers (no I/O, next to no CPU) is hung; 0: wait for --recovery-timeout', shown: String((DEFAULT_RECOVERY_BOUNDS.stallMs ?? 0) / 1000) };
export const CYCLE_FLAGS = [SEED, RECOVERY_TIMEOUT, STALL_TIMEOUT, CHECK_TIMEOUT];

export function flagOption(f: ScenarioFlag): Option {
  return new Option(f.flag, f.shown === undefined ? f.help : `${f.help} (default: ${f.shown})`);
}

const attribute = (f: ScenarioFlag): string => new Option(f.flag).attributeName();
const flagName = (f: ScenarioFlag): string => f.flag.split(' ')[0]!;

/** A number when the text is one, else the text itself (for the schema to reject in its words). */
function numberOrText(text: string): number | string {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
}

/** The flag that set the value at a campaign path, else the path itself. */
function flagAt(path: PropertyKey[]): string {
  const key = path.slice(2).join('.');
  const f = [...SCENARIO_FLAGS, ...EXPLORE_FLAGS, ...PERF_FLAGS, SEED].find((x) => x.key === key || `${x.key}.0` === key);
  return f ? flagName(f) : formatPath(path);
}

const MAX_BOUND_S = 86_400;

/** A bound in seconds, at most a day: a timer's delay past 2^31 - 1 ms would fire at once. */
function seconds(text: string | undefined, f: ScenarioFlag, least = 1): number {
  const value = text ?? f.shown!;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < least || n > MAX_BOUND_S) throw badInput(`${flagName(f)}: '${value}' is not a whole number of seconds from ${least} to ${MAX_BOUND_S}`);
  return n * 1000;
}

export interface CycleScenario {
  scenario: PlannedScenario;
  seed: number;
  bounds: RecoveryBounds;
}

/** The flags `rig cycle` was given (by attribute name) as a scenario, its seed and bounds. */
export function scenarioFromFlags(given: Record<string, string | undefined>, mode: 'live' | 'explore' | 'perf' = 'live'): CycleScenario {
  const name = mode === 'live' ? 'cycle' : mode;
  const scenario: Record<string, unknown> = { name, cycles: 1, seeds: [numberOrText(given.seed ?? SEED.shown!)], ...(mode !== 'live' ? { mode } : {}) };
  const flags = { live: SCENARIO_FLAGS, explore: [...SCENARIO_FLAGS, ...EXPLORE_FLAGS], perf: [...SCENARIO_FLAGS, ...PERF_FLAGS] }[mode];
  for (const f of flags) {
    const value = given[attribute(f)];
    if (value === undefined) continue;
    const [section, key] = f.key.includes('.') ? f.key.split('.') : [null, f.key];
    const target = section ? ((scenario[section] ??= {}) as Record<string, unknown>) : scenario;
    target[key!] = f.numeric ? numberOrText(value) : value;
  }
  const campaign = campaignFrom({ name, scenarios: [scenario] }, 'command line', {}, flagAt);
  const planned = campaign.scenarios[0]!;
  const bounds = {
    startMs: seconds(given.recoveryTimeout, RECOVERY_TIMEOUT),
    checksMs: seconds(given.checkTimeout, CHECK_TIMEOUT),
    stallMs: seconds(given.stallTimeout, STALL_TIMEOUT, 0),
  };
  return { scenario: planned, seed: planned.seeds[0]!, bounds };
}
