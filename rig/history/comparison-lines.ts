/** A comparison of two runs as plain lines: what moved first (the lines a CI log is read for), then each scenario's figures. */
import { showRate } from './rate-interval.js';
import type { Change, RateRow, RunComparison } from './compare-runs.js';

const rateLabel = (what: RateRow['what']) => (what === 'contradicting' ? 'contradicting cycles' : `finding ${what}`);

/** One change as one line: MOVED, NEW or STOPPED, the scenario, what. */
export function changeLine(c: Change): string {
  switch (c.kind) {
    case 'rate-moved':
      return `MOVED ${c.scenario}: ${rateLabel(c.what)} ${showRate(c.before)} -> ${showRate(c.after)}`;
    case 'new-failure-class':
      return `NEW ${c.scenario}: a failure class the earlier run did not have: ${c.failureClass} in ${c.cycles} cycle${c.cycles === 1 ? '' : 's'}`;
    case 'finding-stopped':
      return `STOPPED ${c.scenario}: finding ${c.finding} ${showRate(c.before)} -> ${showRate(c.after)} after the server changed (${c.servers.before.join(', ')} -> ${c.servers.after.join(', ')})`;
  }
}

export function comparisonLines(c: RunComparison): string[] {
  const out = [`comparing ${c.before.campaign} (${c.before.startedAt}) with ${c.after.campaign} (${c.after.startedAt})`];
  out.push(...c.changes.map(changeLine));
  for (const s of c.scenarios) {
    if (!s.before || !s.after) {
      out.push(`${s.scenario}: only in the ${s.before ? 'earlier' : 'later'} run`);
      continue;
    }
    const servers = s.serverChanged ? `server ${s.before.servers.join(', ')} -> ${s.after.servers.join(', ')}` : `server ${s.after.servers.join(', ')}`;
    out.push(`${s.scenario}: ${s.before.judged} -> ${s.after.judged} judged cycles; ${servers}`);
    for (const r of s.rates) {
      out.push(`  ${rateLabel(r.what)}: ${showRate(r.before)} -> ${showRate(r.after)}${r.moved ? '  MOVED' : ''}`);
    }
  }
  out.push(c.changes.length ? `${c.changes.length} change${c.changes.length === 1 ? '' : 's'} since the earlier run` : 'nothing moved since the earlier run');
  return out;
}
