/**
 * What one campaign run says per scenario, in the figures that runs are compared by: its judged
 * cycles (rig errors are the rig's, not the server's), how many contradicted the expectation, how
 * many hit each written-up finding, how many failed in each class (rig/findings/failure-signature.ts),
 * and the servers that ran them.
 */
import { failureClass, type FailureClass } from '../findings/failure-signature.js';
import type { FindingId } from '../results/finding-ids.js';
import type { CampaignResults, CycleRecord } from '../results/types.js';

export interface ScenarioFigures {
  scenario: string;
  judged: number;
  contradicted: number;
  findings: Partial<Record<FindingId, number>>;
  classes: Partial<Record<FailureClass, number>>;
  /** Server versions, as the cycles name them (or the campaign's environment), sorted. */
  servers: string[];
}

export interface RunFigures {
  campaign: string;
  startedAt: string;
  scenarios: ScenarioFigures[];
}

const serverOf = (c: CycleRecord, results: CampaignResults) =>
  c.server?.version ?? `${results.environment?.server ?? 'server'} ${results.environment?.serverVersion ?? 'unknown'}`;

export function runFigures(results: CampaignResults): RunFigures {
  const scenarios = results.scenarios
    .filter((s) => !s.settings.perf)
    .map((s): ScenarioFigures => {
      const judged = results.cycles.filter((c) => c.scenario === s.name && c.verdict !== 'rig-error');
      const classes: Partial<Record<FailureClass, number>> = {};
      for (const c of judged) {
        const k = failureClass(c.verdict);
        if (k) classes[k] = (classes[k] ?? 0) + 1;
      }
      const findings: Partial<Record<FindingId, number>> = {};
      for (const f of s.findings ?? []) findings[f.id] = f.hits;
      return {
        scenario: s.name,
        judged: judged.length,
        contradicted: judged.filter((c) => c.expectationHeld === false).length,
        findings,
        classes,
        servers: [...new Set(judged.map((c) => serverOf(c, results)))].sort(),
      };
    });
  return { campaign: results.campaign, startedAt: results.startedAt, scenarios };
}

/** Several runs as one: each scenario's counts summed, its servers joined (the earlier nights a latest one is held against). */
export function pooledFigures(runs: RunFigures[]): RunFigures {
  const byName = new Map<string, ScenarioFigures>();
  for (const run of runs) {
    for (const s of run.scenarios) {
      const into = byName.get(s.scenario) ?? { scenario: s.scenario, judged: 0, contradicted: 0, findings: {}, classes: {}, servers: [] };
      into.judged += s.judged;
      into.contradicted += s.contradicted;
      for (const [id, n] of Object.entries(s.findings) as [FindingId, number][]) into.findings[id] = (into.findings[id] ?? 0) + n;
      for (const [k, n] of Object.entries(s.classes) as [FailureClass, number][]) into.classes[k] = (into.classes[k] ?? 0) + n;
      into.servers = [...new Set([...into.servers, ...s.servers])].sort();
      byName.set(s.scenario, into);
    }
  }
  const first = runs[0];
  const last = runs.at(-1);
  return {
    campaign: last?.campaign ?? '',
    startedAt: first && last && first !== last ? `${first.startedAt} .. ${last.startedAt}` : (last?.startedAt ?? ''),
    scenarios: [...byName.values()],
  };
}
