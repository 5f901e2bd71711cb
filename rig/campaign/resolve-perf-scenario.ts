/**
 * A `mode: perf` scenario's settings: `rig perf`'s comparison with the scenario's profile, server,
 * runtime and dataset. Its settings are those of the doublewrite-on member; the disk is ext4 with
 * 16 KiB bigalloc clusters and 16 KiB atomic writes for both members (rig/perf/perf-settings.ts),
 * so a scenario that names doublewrite, the filesystem, the atomic unit, a trigger or a load kind
 * is told perf mode sets them itself. Each cycle is one interleaved pair of runs.
 */
import { DEFAULT_DISK, DEFAULT_PERF, DEFAULT_RUNTIME, DEFAULT_SERVER } from '../defaults.js';
import { findImageSpec } from '../docker/image-catalog.js';
import type { ScenarioSettings } from '../results/types.js';
import { readSize, formatSize } from '../../faults/sizes.js';
import { PERF_ATOMIC, PERF_FS } from '../perf/perf-settings.js';
import type { ParsedScenario, ScenarioFields } from './schema.js';
import type { ResolvedScenario, StrayKey } from './resolved-scenario.js';

const SET_BY_PERF: [section: 'server' | 'disk' | 'load', key: string][] = [
  ['server', 'doublewrite'], ['disk', 'fs'], ['disk', 'atomic'], ['disk', 'trigger'], ['disk', 'cacheBound'], ['load', 'kind'], ['load', 'mix'], ['load', 'maxSeconds'],
];

function strayKey(scenario: ParsedScenario): StrayKey | undefined {
  for (const [section, key] of SET_BY_PERF) {
    if ((scenario[section] as Record<string, unknown> | undefined)?.[key] !== undefined) {
      return { path: [section, key], message: `${section}.${key} is set by perf mode (doublewrite on against off, ${PERF_FS}, atomic ${PERF_ATOMIC}, sysbench); remove it` };
    }
  }
  const explore = (['states', 'pick', 'expect', 'exercise', 'findings'] as const).find((k) => scenario[k] !== undefined);
  return explore ? { path: [explore], message: `${explore} has no use in perf mode, which measures and judges nothing; remove it` } : undefined;
}

export function resolvePerfScenario(defaults: ScenarioFields, scenario: ParsedScenario): ResolvedScenario {
  const server = { ...defaults.server, ...scenario.server };
  const disk = { ...defaults.disk, ...scenario.disk };
  const load = { ...defaults.load, ...scenario.load };
  const settings: ScenarioSettings = {
    name: scenario.name,
    runtime: scenario.runtime ?? defaults.runtime ?? DEFAULT_RUNTIME,
    server: {
      engine: server.engine ?? DEFAULT_SERVER.engine,
      doublewrite: true,
      flushMethod: server.flushMethod ?? DEFAULT_SERVER.flushMethod,
      pageSize: server.pageSize ?? DEFAULT_SERVER.pageSize,
      bufferPool: formatSize(server.bufferPool ?? readSize(DEFAULT_PERF.bufferPool)!),
      redoSize: server.redoSize === undefined ? DEFAULT_SERVER.redoSize : formatSize(server.redoSize),
      flushing: server.flushing ?? DEFAULT_PERF.flushing,
    },
    disk: {
      profile: disk.profile?.name ?? DEFAULT_DISK.profile,
      model: disk.profile?.device ?? DEFAULT_DISK.model,
      atomicUnit: readSize(PERF_ATOMIC)!,
      fs: PERF_FS,
      trigger: DEFAULT_DISK.trigger, // never armed: a perf run cuts nothing
      journalMaxBytes: DEFAULT_DISK.journalMaxBytes,
      sizeBytes: disk.size ?? readSize(DEFAULT_PERF.size)!,
    },
    load: {
      kind: 'sysbench',
      connections: load.connections ?? DEFAULT_PERF.connections,
      tables: load.tables ?? DEFAULT_PERF.tables,
      rows: load.rows ?? DEFAULT_PERF.rows,
      maxSeconds: 0, // a perf run's length is perf.seconds
    },
    expect: 'recovers', // the on member's; perf judges nothing
    perf: { seconds: scenario.seconds ?? defaults.seconds ?? DEFAULT_PERF.seconds },
  };
  const image = scenario.image ?? defaults.image;
  if (image !== undefined) settings.image = findImageSpec(image)?.tag ?? image;
  const stray = strayKey(scenario);
  return { settings, cycles: scenario.cycles ?? defaults.cycles ?? null, ...(stray ? { stray } : {}) };
}
