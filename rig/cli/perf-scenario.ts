/**
 * `rig perf`'s flags as a perf scenario, as `rig cycle`'s become a live one: checked as campaign
 * files are, a problem named by its flag; then the pair of settings it compares.
 */
import { perfPair, type PerfPair } from '../perf/perf-settings.js';
import { scenarioFromFlags } from './cycle-scenario.js';

/** What `rig perf` is told; absent keys take DEFAULT_PERF's or the scenario defaults. */
export interface PerfFlags {
  profile?: string;
  runtime?: string;
  image?: string;
  bufferPool?: string;
  tables?: string;
  rows?: string;
  connections?: string; // sysbench threads
  seconds?: string; // each run's
}

export function perfSettings(flags: PerfFlags): PerfPair {
  const given: Record<string, string | undefined> = {
    profile: flags.profile,
    runtime: flags.runtime,
    image: flags.image,
    bufferPool: flags.bufferPool,
    tables: flags.tables,
    rows: flags.rows,
    connections: flags.connections,
    seconds: flags.seconds,
  };
  return perfPair(scenarioFromFlags(given, 'perf').scenario.settings);
}
