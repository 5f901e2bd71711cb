/**
 * A hit rate and its 95% interval: the Wilson score interval, which stays inside 0..1 and means
 * something at the small counts a scenario has (3 hits of 30 cycles), where the normal
 * approximation does not.
 */
export interface Rate {
  hits: number;
  of: number;
  /** hits / of; 0 when there were no cycles to count. */
  rate: number;
  low: number;
  high: number;
}

const Z95 = 1.959964;

export function rateOf(hits: number, of: number): Rate {
  if (!(of > 0)) return { hits, of: 0, rate: 0, low: 0, high: 1 };
  const p = hits / of;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * of)) / (1 + z2 / of);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / of + z2 / (4 * of * of))) / (1 + z2 / of);
  return { hits, of, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Moved: each run's rate lies outside the other's 95% interval (two samples that disagree). */
export function rateMoved(before: Rate, after: Rate): boolean {
  if (before.of === 0 || after.of === 0) return false;
  const outside = (r: number, i: Rate) => r < i.low || r > i.high;
  return outside(after.rate, before) && outside(before.rate, after);
}

/** "3/30 (10%, 95% 3-26%)" */
export function showRate(r: Rate): string {
  if (r.of === 0) return 'no judged cycles';
  const pct = (x: number) => Math.round(x * 100);
  return `${r.hits}/${r.of} (${pct(r.rate)}%, 95% ${pct(r.low)}-${pct(r.high)}%)`;
}
