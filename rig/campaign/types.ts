/** A campaign as the runner uses it: every scenario fully resolved, every cycle's seed known. */
import type { EvidencePolicy } from './evidence-policy.js';
import type { ScenarioSettings } from '../results/types.js';

export interface PlannedScenario {
  settings: ScenarioSettings;
  cycles: number;
  seeds: number[]; // one per cycle: seeds[i] is cycle i + 1's seed
}

export interface Campaign {
  name: string;
  file: string; // as the user named it
  seed: number;
  evidence: EvidencePolicy;
  scenarios: PlannedScenario[];
}

/** A problem in a campaign file: where (a key path) and what to do about it (one line). */
export interface CampaignProblem {
  path: PropertyKey[];
  message: string;
}

/** One cycle of the flat, ordered list an unsharded run works through. */
export interface PlannedCycle {
  id: string; // <scenario>-<cycle>, unique in the campaign, safe as a folder name
  scenario: string;
  cycle: number; // 1-based within its scenario
  seed: number;
  position: number; // 0-based index in the unsharded order
}

export interface Shard {
  index: number; // 1-based
  count: number;
}
