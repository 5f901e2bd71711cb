/**
 * Before a cycle or campaign creates anything: a scenario on the dm backend needs the kernel's
 * device-mapper here (one line and exit 2 where there is none, as every bad input gets).
 */
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { watchPath } from '../../faults/dm/cut-watch.js';
import { preflightDm } from '../../faults/dm/dm-preflight.js';
import type { ScenarioSettings } from '../results/types.js';

export async function preflightBackends(scenarios: ScenarioSettings[], environment: DiskEnvironment): Promise<void> {
  const dm = scenarios.find((s) => s.disk.backend === 'dm');
  if (dm) await preflightDm(dm.disk.model, { recording: dm.explore !== undefined, watcher: watchPath(environment.helperPath), control: environment.dmControl });
}
