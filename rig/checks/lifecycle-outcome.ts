/**
 * What a lifecycle table's state after recovery says about its acknowledged steps. Each step is
 * one atomic statement, and a client runs one at a time, so a legal outcome of a crash is the
 * state the last acknowledged step left, or the one the step in flight would leave. A state an
 * earlier step left means the acknowledged steps since were lost (counted from the latest such
 * step, the fewest it can be); a state no step left is broken data.
 */
import type { TableSteps } from '../load/lifecycle/acked-steps.js';

export type StepsOutcome =
  | { kind: 'held' }
  | { kind: 'lost'; steps: number; line: string }
  | { kind: 'unexplained'; line: string };

export function judgeTableSteps(t: TableSteps, observed: string): StepsOutcome {
  const last = t.history.length - 1;
  const acked = t.history[last]!;
  if (observed === acked || observed === t.inFlight) return { kind: 'held' };
  const inFlight = t.inFlight === null ? '' : `; in flight: "${t.inFlight}"`;
  const earlier = t.history.lastIndexOf(observed, last - 1);
  if (earlier >= 0) {
    const steps = last - earlier;
    return { kind: 'lost', steps, line: `${t.table}: holds "${observed}", as before its last ${steps} acknowledged step${steps === 1 ? '' : 's'} (the last acknowledged left "${acked}"${inFlight})` };
  }
  return { kind: 'unexplained', line: `${t.table}: holds "${observed}", a state none of its steps left (the last acknowledged left "${acked}"${inFlight})` };
}
