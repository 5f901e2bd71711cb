/** The power-fail disk a scenario's settings describe, in `dir`, with no trigger armed yet. */
import type { ScenarioSettings } from '../results/types.js';
import { DEFAULT_DISK } from '../defaults.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import type { DiskOptions } from '../../faults/power-fail-disk.js';

export function diskOptionsFor(
  settings: ScenarioSettings,
  dir: string,
  image: Pick<DiskOptions, 'fromImage' | 'adoptImage' | 'record'> = {},
  environment?: DiskEnvironment,
): DiskOptions {
  return {
    dir,
    sizeBytes: settings.disk.sizeBytes,
    fs: settings.disk.fs,
    atomicUnit: settings.disk.atomicUnit,
    pageSize: settings.server.pageSize,
    journalMaxBytes: settings.disk.journalMaxBytes,
    // a record written before device profiles ran on the machine's disk as it is
    model: settings.disk.model ?? DEFAULT_DISK.model,
    trigger: null,
    ...(settings.disk.backend === 'dm' ? { backend: 'dm' as const } : {}),
    ...image,
    ...(environment ? { environment } : {}),
  };
}
