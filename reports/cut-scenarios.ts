/** The scenarios that cut power (live or explore): a perf scenario measures instead, and the safety-and-benefit section shows it. */
import type { ScenarioSummary } from '../rig/results/types.js';
import type { BriefedResults } from '../rig/results/cycle-brief.js';

export function cutScenarios(results: BriefedResults): ScenarioSummary[] {
  return results.scenarios.filter((s) => !s.settings.perf);
}
