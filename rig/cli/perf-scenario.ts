/**
 * `rig perf`'s flags as a perf scenario, as `rig cycle`'s become a live one: checked as campaign
 * files are, a problem named by its flag; then what it compares (rig/perf/perf-comparison.ts) and
 * the workload its runs drive.
 */
import { oneOf } from '../../faults/checked.js';
import { badInput } from '../errors.js';
import { PERF_AXES, perfComparison, type PerfAxis, type PerfComparison } from '../perf/perf-comparison.js';
import { perfPair, type PerfPair } from '../perf/perf-settings.js';
import { PERF_WORKLOADS, type PerfWorkload } from '../perf/perf-workload.js';
import type { ScenarioSettings } from '../results/types.js';
import { scenarioFromFlags } from './cycle-scenario.js';

/** What `rig perf` is told; absent keys take DEFAULT_PERF's or the scenario defaults. */
export interface PerfFlags {
  profile?: string; // two, comma-separated, with --compare profile
  runtime?: string;
  image?: string;
  engine?: string;
  bufferPool?: string;
  flushing?: string; // eager or stock (the default)
  tables?: string;
  rows?: string;
  connections?: string; // sysbench threads
  seconds?: string; // each run's
  compare?: string;
  workload?: string;
}

function settingsFor(flags: PerfFlags, profile: string | undefined): ScenarioSettings {
  const { runtime, image, engine, bufferPool, flushing, tables, rows, connections, seconds } = flags;
  return scenarioFromFlags({ profile, runtime, image, engine, bufferPool, flushing, tables, rows, connections, seconds }, 'perf').scenario.settings;
}

/** The doublewrite pair on one profile: `rig perf` before it took an axis, and a campaign's perf scenario. */
export function perfSettings(flags: PerfFlags): PerfPair {
  return perfPair(settingsFor(flags, flags.profile));
}

function chosen<T extends string>(text: string | undefined, values: readonly T[], flag: string): T {
  const value = text ?? values[0]!;
  if (!(values as readonly string[]).includes(value)) throw badInput(`${flag}: '${value}' is not ${oneOf(values)}; e.g. ${flag} ${values[1] ?? values[0]}`);
  return value as T;
}

/** The profiles --profile names: one, or two (comma-separated) with --compare profile. */
function profilesFor(axis: PerfAxis, text: string | undefined): (string | undefined)[] {
  const names = text === undefined ? [undefined] : text.split(',').map((n) => n.trim());
  if (names.some((n) => n === '')) throw badInput(`--profile: '${text}' has an empty name; give names separated by one comma, e.g. --profile nvme,pmem`);
  if (axis === 'profile') {
    if (names.length !== 2) throw badInput(`--profile: --compare profile needs two profiles, A then B; give them as --profile nvme,pmem`);
    if (names[0] === names[1]) throw badInput(`--profile: '${text}' names ${names[0]} twice; name two different profiles, e.g. --profile nvme,pmem`);
  } else if (names.length !== 1) {
    throw badInput(`--profile: '${text}' names ${names.length} profiles; only --compare profile takes two: add --compare profile, or name one`);
  }
  return names;
}

export interface PerfPlan {
  comparison: PerfComparison;
  workload: PerfWorkload;
}

/** The comparison and workload the flags ask for, or bad input naming the flag and the fix. */
export function perfPlan(flags: PerfFlags): PerfPlan {
  const axis = chosen(flags.compare, PERF_AXES, '--compare');
  const workload = chosen(flags.workload, PERF_WORKLOADS, '--workload');
  if (axis === 'engine' && flags.engine !== undefined) throw badInput(`--engine: --compare engine runs both innodb and rocksdb; drop --engine`);
  const [first, second] = profilesFor(axis, flags.profile).map((profile) => settingsFor(flags, profile));
  return { comparison: perfComparison(axis, first!, second), workload };
}
