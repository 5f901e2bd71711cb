/**
 * One scenario's full settings: the rig's defaults (rig/defaults.ts), then the campaign's `defaults`,
 * then the scenario's own fields, section by section. The expectation follows from the result
 * unless set; an image may be named by its catalog name (mariadb-11.8) or by any tag.
 */
import type { ScenarioSettings } from '../results/types.js';
import { findImageSpec } from '../docker/image-catalog.js';
import { DEFAULT_DISK, DEFAULT_EXPLORE, DEFAULT_EXPLORE_TRIGGER, DEFAULT_LOAD, DEFAULT_RUNTIME, DEFAULT_SERVER, defaultTrigger } from '../defaults.js';
import { defaultExpectation } from './default-expectation.js';
import type { ParsedScenario, ScenarioFields } from './schema.js';
import { formatSize } from '../../faults/sizes.js';
import { resolvePerfScenario } from './resolve-perf-scenario.js';
import type { ResolvedScenario, StrayKey } from './resolved-scenario.js';

export function resolveScenario(defaults: ScenarioFields, scenario: ParsedScenario): ResolvedScenario {
  const server = { ...defaults.server, ...scenario.server };
  const disk = { ...defaults.disk, ...scenario.disk };
  const load = { ...defaults.load, ...scenario.load };
  const mode = scenario.mode ?? defaults.mode ?? 'live';
  const explore = mode === 'explore';
  if (mode === 'perf') return resolvePerfScenario(defaults, scenario);
  const settings: ScenarioSettings = {
    name: scenario.name,
    runtime: scenario.runtime ?? defaults.runtime ?? DEFAULT_RUNTIME,
    server: {
      engine: server.engine ?? DEFAULT_SERVER.engine,
      doublewrite: server.doublewrite ?? DEFAULT_SERVER.doublewrite,
      flushMethod: server.flushMethod ?? DEFAULT_SERVER.flushMethod,
      pageSize: server.pageSize ?? DEFAULT_SERVER.pageSize,
      bufferPool: server.bufferPool === undefined ? DEFAULT_SERVER.bufferPool : formatSize(server.bufferPool),
      redoSize: server.redoSize === undefined ? DEFAULT_SERVER.redoSize : formatSize(server.redoSize),
      ...(server.flushing ? { flushing: server.flushing } : {}),
    },
    disk: {
      profile: disk.profile?.name ?? DEFAULT_DISK.profile,
      model: disk.profile?.device ?? DEFAULT_DISK.model,
      atomicUnit: disk.atomic ?? DEFAULT_DISK.atomicUnit,
      fs: disk.fs ?? DEFAULT_DISK.fs,
      trigger: disk.trigger ?? (explore ? DEFAULT_EXPLORE_TRIGGER : defaultTrigger(server.engine ?? DEFAULT_SERVER.engine)),
      journalMaxBytes: disk.cacheBound ?? DEFAULT_DISK.journalMaxBytes,
      sizeBytes: disk.size ?? DEFAULT_DISK.sizeBytes,
      ...(disk.backend === 'dm' ? { backend: 'dm' as const } : {}),
      ...(disk.fates ? { fates: disk.fates } : {}),
    },
    load: { ...DEFAULT_LOAD, ...load },
    expect: 'recovers',
  };
  const image = scenario.image ?? defaults.image;
  if (image !== undefined) settings.image = findImageSpec(image)?.tag ?? image; // a catalog name names its tag
  const exercise = scenario.exercise ?? defaults.exercise;
  if (exercise !== undefined) settings.exercise = { minShare: exercise.minShare };
  const findings = scenario.findings ?? defaults.findings;
  if (findings !== undefined) settings.findings = [...new Set(findings)];
  settings.expect = scenario.expect ?? defaults.expect ?? defaultExpectation(settings.server, settings.disk);
  if (explore) {
    settings.explore = { states: scenario.states ?? defaults.states ?? DEFAULT_EXPLORE.states, pick: scenario.pick ?? defaults.pick ?? DEFAULT_EXPLORE.pick };
  }
  const key = (['states', 'pick'] as const).find((k) => scenario[k] !== undefined);
  const stray: StrayKey | undefined = !settings.explore && key ? { path: [key], message: `${key} is for explore mode; add mode: explore, or remove ${key}` }
    : scenario.seconds !== undefined ? { path: ['seconds'], message: 'seconds is for perf mode; add mode: perf, or remove seconds' } : undefined;
  return { settings, cycles: scenario.cycles ?? defaults.cycles ?? null, ...(stray ? { stray } : {}) };
}

