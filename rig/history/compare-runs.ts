/**
 * What changed from one run to a later one, scenario by scenario: the rate of cycles that
 * contradicted the expectation and each finding's hit rate, each with its 95% interval, flagged
 * when it moved (each run's rate outside the other's interval); a failure class the earlier run
 * never saw; a finding that stopped hitting after the server changed; the server itself. A
 * scenario only one run has is listed, not flagged: the campaign changed, not the server.
 */
import type { FailureClass } from '../findings/failure-signature.js';
import type { FindingId } from '../results/finding-ids.js';
import { rateMoved, rateOf, type Rate } from './rate-interval.js';
import type { RunFigures, ScenarioFigures } from './run-figures.js';

export type Change =
  | { kind: 'rate-moved'; scenario: string; what: 'contradicting' | FindingId; before: Rate; after: Rate }
  | { kind: 'new-failure-class'; scenario: string; failureClass: FailureClass; cycles: number }
  | { kind: 'finding-stopped'; scenario: string; finding: FindingId; before: Rate; after: Rate; servers: { before: string[]; after: string[] } };

export interface RateRow {
  what: 'contradicting' | FindingId;
  before: Rate;
  after: Rate;
  moved: boolean;
}

export interface ScenarioComparison {
  scenario: string;
  /** null: the scenario is not in that run. */
  before: ScenarioFigures | null;
  after: ScenarioFigures | null;
  rates: RateRow[];
  serverChanged: boolean;
}

export interface RunComparison {
  before: { campaign: string; startedAt: string };
  after: { campaign: string; startedAt: string };
  scenarios: ScenarioComparison[];
  changes: Change[];
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function compareRuns(before: RunFigures, after: RunFigures): RunComparison {
  const names = [...new Set([...before.scenarios, ...after.scenarios].map((s) => s.scenario))];
  const scenarios: ScenarioComparison[] = [];
  const changes: Change[] = [];
  for (const name of names) {
    const b = before.scenarios.find((s) => s.scenario === name) ?? null;
    const a = after.scenarios.find((s) => s.scenario === name) ?? null;
    if (!b || !a) {
      scenarios.push({ scenario: name, before: b, after: a, rates: [], serverChanged: false });
      continue;
    }
    const serverChanged = !sameList(b.servers, a.servers);
    const rows: RateRow[] = [];
    const row = (what: RateRow['what'], hitsBefore: number, hitsAfter: number) => {
      const r = { what, before: rateOf(hitsBefore, b.judged), after: rateOf(hitsAfter, a.judged) };
      const moved = rateMoved(r.before, r.after);
      rows.push({ ...r, moved });
      if (moved) changes.push({ kind: 'rate-moved', scenario: name, ...r });
      return r;
    };
    row('contradicting', b.contradicted, a.contradicted);
    const findings = [...new Set([...Object.keys(b.findings), ...Object.keys(a.findings)])].sort() as FindingId[];
    for (const id of findings) {
      const r = row(id, b.findings[id] ?? 0, a.findings[id] ?? 0);
      if (serverChanged && r.before.hits > 0 && r.after.hits === 0 && r.after.of > 0) {
        changes.push({ kind: 'finding-stopped', scenario: name, finding: id, ...r, servers: { before: b.servers, after: a.servers } });
      }
    }
    for (const [k, n] of Object.entries(a.classes) as [FailureClass, number][]) {
      if (n > 0 && !(b.classes[k] ?? 0)) changes.push({ kind: 'new-failure-class', scenario: name, failureClass: k, cycles: n });
    }
    scenarios.push({ scenario: name, before: b, after: a, rates: rows, serverChanged });
  }
  return {
    before: { campaign: before.campaign, startedAt: before.startedAt },
    after: { campaign: after.campaign, startedAt: after.startedAt },
    scenarios,
    changes,
  };
}
