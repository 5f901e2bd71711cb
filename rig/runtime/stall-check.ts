/**
 * A runtime's stall check for one start: the server's activity (by pid, and its datadir's device)
 * and the watch that judges it (./stall-watch.ts). None where no window was asked for or the
 * activity cannot be read, so such a start waits for its bound alone.
 */
import type { StallSeen } from '../results/types.js';
import type { StartOutcome } from './types.js';
import { activitySource, type ActivitySource } from './server-activity.js';
import { StallWatch } from './stall-watch.js';

export interface StallCheck {
  source: ActivitySource;
  watch: StallWatch;
  startedAtMs: number; // performance.now() when the check began, about when the server did
}

export function stallCheck(pid: number | null, datadir: string, stallMs: number | undefined): StallCheck | null {
  if (!stallMs || stallMs <= 0) return null;
  const source = activitySource(pid, datadir);
  return source ? { source, watch: new StallWatch(stallMs), startedAtMs: performance.now() } : null;
}

/** The not-ready outcome's bound fields: a stall counts as the bound passing, with its evidence. */
export function notReady(
  why: 'exited' | 'timeout' | 'aborted' | 'stalled',
  stall: StallCheck | null,
): Pick<Extract<StartOutcome, { ready: false }>, 'timedOut' | 'stalled'> {
  const found = why === 'stalled' ? stall?.watch.found : null;
  if (!found) return { timedOut: why === 'timeout' };
  const stalled: StallSeen = {
    afterMs: Math.max(0, Math.round(found.sinceMs - stall!.startedAtMs)),
    forMs: Math.round(found.forMs),
    cpuMs: Math.round(found.cpuMs),
  };
  return { timedOut: true, stalled };
}
