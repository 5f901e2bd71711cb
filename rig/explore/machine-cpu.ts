/**
 * The machine's CPU time so far, all cores together, from /proc/stat's first line (in USER_HZ:
 * 100 a second). Busy is everything but idle and waiting for I/O. Null where there is no
 * /proc/stat to read.
 */
import { readFileSync } from 'node:fs';

export interface MachineCpu {
  busy: number; // seconds
  total: number; // seconds
}

export function machineCpu(): MachineCpu | null {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  } catch {
    return null;
  }
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  if (!line.startsWith('cpu ') || ticks.length < 4 || ticks.some((n) => !Number.isFinite(n))) return null;
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: (total - ticks[3]! - (ticks[4] ?? 0)) / 100, total: total / 100 };
}

/** How busy the cores were between two readings, from 0 to 1; null when no time passed. */
export function busyShareBetween(from: MachineCpu, to: MachineCpu): number | null {
  const total = to.total - from.total;
  return total > 0 ? Math.min(1, Math.max(0, (to.busy - from.busy) / total)) : null;
}
