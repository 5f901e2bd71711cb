/** The power-fail disk a scenario's settings describe, in `dir`, with no trigger armed yet. */
import type { ScenarioSettings } from '../results/types.js';
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
    trigger: null,
    ...image,
    ...(environment ? { environment } : {}),
  };
}
