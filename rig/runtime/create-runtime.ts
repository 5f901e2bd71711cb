/** The server runtime a scenario names. */
import type { ScenarioSettings } from '../results/types.js';
import { createLocalRuntime } from './local.js';
import type { ServerRuntime } from './types.js';
import { badInput } from '../errors.js';

export async function createRuntime(settings: ScenarioSettings): Promise<ServerRuntime> {
  if (settings.runtime === 'local') return createLocalRuntime();
  throw badInput(`runtime '${settings.runtime}' is not wired into crash cycles yet; use --runtime local`);
}
