/** The scenarios that cut power (live or explore): a perf scenario measures instead, and the safety-and-benefit section shows it. */
import type { CampaignResults, ScenarioSummary } from '../rig/results/types.js';

export function cutScenarios(results: CampaignResults): ScenarioSummary[] {
  return results.scenarios.filter((s) => !s.settings.perf);
}
