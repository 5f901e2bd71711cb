/**
 * A campaign's filed runs read as a reviewer reads them in the morning: the latest run held against
 * the runs before it (at most `last` runs in all), pooled, with the same flags as `rig compare`
 * (rig/history/compare-runs.ts), and per scenario the rates over those runs with their 95%
 * intervals, when each finding and failure class was first and last seen (in every run filed), and
 * the servers that ran them. A change the run before the latest already had (held against its
 * own earlier runs) stands, and is listed as such: what is new this morning is what is flagged.
 */
import type { FailureClass } from '../findings/failure-signature.js';
import type { FindingId } from '../results/finding-ids.js';
import { compareRuns, type Change } from './compare-runs.js';
import { changeLine } from './comparison-lines.js';
import type { FiledRun } from './history-store.js';
import { rateOf, showRate, type Rate } from './rate-interval.js';
import { pooledFigures } from './run-figures.js';

export interface Seen {
  kind: 'contradicting' | 'finding' | 'class';
  name: string; // the finding's id, the class; 'contradicting cycles'
  /** Over the runs in view. */
  rate: Rate;
  /** Among every run filed: the first and last with a hit, and how many had one. */
  first: { run: number; startedAt: string } | null;
  last: { run: number; startedAt: string } | null;
  runsWith: number;
}

export interface ScenarioHistory {
  scenario: string;
  servers: { version: string; runs: number[] }[];
  seen: Seen[];
}

export interface HistoryView {
  campaign: string;
  runs: { id: number; startedAt: string; dir: string }[]; // in view, oldest first
  filed: number; // every run of the campaign filed
  /** What moved in the latest run that had not already moved in the run before it. */
  changes: Change[];
  /** Changes the run before it had too: still so, flagged yesterday, not new. */
  standing: Change[];
  scenarios: ScenarioHistory[];
}

/** How many runs `rig history` and a report's history section read unless told: the latest among them. */
export const DEFAULT_HISTORY_RUNS = 10;

export function historyView(all: FiledRun[], last: number): HistoryView {
  const inView = all.slice(-Math.max(1, last));
  const latest = inView.at(-1);
  const earlier = inView.slice(0, -1);
  const now = latest && earlier.length ? compareRuns(pooledFigures(earlier), latest).changes : [];
  // the run before the latest, held against the runs before it within the same window length
  const before = all.slice(-Math.max(1, last) - 1, -1);
  const then = before.length > 1 ? compareRuns(pooledFigures(before.slice(0, -1)), before.at(-1)!).changes.map(changeKey) : [];
  const changes = now.filter((c) => !then.includes(changeKey(c)));
  const standing = now.filter((c) => then.includes(changeKey(c)));
  const pooledInView = pooledFigures(inView).scenarios;
  const scenarios = pooledInView.map(({ scenario: name }): ScenarioHistory => {
    const of = (run: FiledRun) => run.scenarios.find((s) => s.scenario === name);
    const servers = new Map<string, number[]>();
    for (const run of inView) for (const v of of(run)?.servers ?? []) servers.set(v, [...(servers.get(v) ?? []), run.id]);
    const pooled = pooledInView.find((s) => s.scenario === name)!;
    const counted: Array<[Seen['kind'], string, (run: FiledRun) => number]> = [
      ['contradicting', 'contradicting cycles', (run) => of(run)?.contradicted ?? 0],
      ...(Object.keys(pooled.findings) as FindingId[]).sort().map((id): [Seen['kind'], string, (run: FiledRun) => number] => ['finding', id, (run) => of(run)?.findings[id] ?? 0]),
      ...(Object.keys(pooled.classes) as FailureClass[]).sort().map((k): [Seen['kind'], string, (run: FiledRun) => number] => ['class', k, (run) => of(run)?.classes[k] ?? 0]),
    ];
    const seen = counted.map(([kind, what, hitsIn]): Seen => {
      const withHits = all.filter((run) => hitsIn(run) > 0);
      const at = (run: FiledRun | undefined) => (run ? { run: run.id, startedAt: run.startedAt } : null);
      return { kind, name: what, rate: rateOf(inView.reduce((n, run) => n + hitsIn(run), 0), pooled.judged), first: at(withHits[0]), last: at(withHits.at(-1)), runsWith: withHits.length };
    });
    return { scenario: name, servers: [...servers].map(([version, runs]) => ({ version, runs })), seen };
  });
  return { campaign: latest?.campaign ?? '', runs: inView.map((r) => ({ id: r.id, startedAt: r.startedAt, dir: r.dir })), filed: all.length, changes, standing, scenarios };
}

/** The view as of one filed run (its start names it): that run as the latest, the runs after it unread; null when it is not filed. */
export function historyViewAt(all: FiledRun[], startedAt: string, last: number): HistoryView | null {
  const at = all.findIndex((r) => r.startedAt === startedAt);
  return at < 0 ? null : historyView(all.slice(0, at + 1), last);
}

/** What a change is about, whatever its figures: the same key on two nights is the same change (a rate that rose, then fell, moved twice). */
function changeKey(c: Change): string {
  const what = c.kind === 'rate-moved' ? `${c.what} ${c.after.rate > c.before.rate ? 'up' : 'down'}` : c.kind === 'new-failure-class' ? c.failureClass : c.finding;
  return `${c.kind} ${c.scenario} ${what}`;
}

/** "contradicting cycles", "finding page0-not-restored", "class hangs" */
export const seenLabel = (x: Seen) => (x.kind === 'contradicting' ? x.name : `${x.kind} ${x.name}`);

/** "mariadbd 10.11.19 (runs 1, 2, 3); mariadbd 10.11.20 (run 4)" */
export const serversText = (s: ScenarioHistory) => s.servers.map((x) => `${x.version} (run${x.runs.length === 1 ? '' : 's'} ${x.runs.join(', ')})`).join('; ');

/** Plain lines, the changes first, as `rig history` prints them. */
export function historyLines(v: HistoryView): string[] {
  if (!v.runs.length) return ['no runs filed'];
  const first = v.runs[0]!;
  const latest = v.runs.at(-1)!;
  const against = v.runs.length > 1 ? `the latest held against the ${v.runs.length - 1} before it` : 'none before the latest';
  const out = [`history of ${v.campaign}: ${v.runs.length} of ${v.filed} filed runs in view (run ${first.id}, ${first.startedAt} .. run ${latest.id}, ${latest.startedAt}); ${against}`];
  out.push(...v.changes.map(changeLine));
  out.push(...v.standing.map((c) => `still, as the run before: ${changeLine(c)}`));
  for (const s of v.scenarios) {
    out.push(`${s.scenario}: ${serversText(s)}`);
    for (const x of s.seen) {
      const seen = x.first ? `first seen run ${x.first.run} (${x.first.startedAt}), last run ${x.last!.run} (${x.last!.startedAt}), in ${x.runsWith} of ${v.filed} runs` : 'never seen';
      out.push(`  ${seenLabel(x)}: ${showRate(x.rate)} over ${v.runs.length} run${v.runs.length === 1 ? '' : 's'}; ${seen}`);
    }
  }
  out.push(closingLine(v));
  return out;
}

function closingLine(v: HistoryView): string {
  return v.runs.length < 2 ? 'one run in view: nothing to hold it against' : v.changes.length ? `${v.changes.length} change${v.changes.length === 1 ? '' : 's'} in the latest run` : 'nothing moved in the latest run';
}

/** What the latest run changed, and the count: `rig campaign --history` prints these, without each scenario's figures. */
export function changeSummary(v: HistoryView): string[] {
  return [...v.changes.map(changeLine), closingLine(v)];
}
