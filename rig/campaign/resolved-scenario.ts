/** A scenario resolved to its full settings (rig/campaign/resolve-scenario.ts, resolve-perf-scenario.ts). */
import type { ScenarioSettings } from '../results/types.js';

export interface ResolvedScenario {
  settings: ScenarioSettings;
  cycles: number | null; // null: neither the scenario nor the defaults said
  stray?: StrayKey; // a key the scenario's mode has no use for, or one perf mode sets itself
}

export interface StrayKey {
  path: string[];
  message: string;
}
