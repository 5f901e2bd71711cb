/**
 * Off / on ratios per interleaved pair of runs, and their spread. Each pair ran back to back on the
 * same machine, so its ratio cancels what the machine's other work did to both; the median says
 * the size, min and max how far one pair can stray.
 */
export interface RatioSpread {
  pairs: number[]; // one per repetition: off / on
  median: number;
  min: number;
  max: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The spread of off[i] / on[i]; both lists are one value a repetition, in order. */
export function ratioSpread(on: readonly number[], off: readonly number[]): RatioSpread {
  if (on.length === 0 || on.length !== off.length) throw new Error(`ratios need as many runs of each setting (${on.length} on, ${off.length} off)`);
  const pairs = on.map((value, i) => off[i]! / value);
  return { pairs, median: median(pairs), min: Math.min(...pairs), max: Math.max(...pairs) };
}

/** '1.47' as '+47%', '0.98' as '-2%'. */
export function formatChange(ratio: number): string {
  const percent = Math.round((ratio - 1) * 100);
  return `${percent >= 0 ? '+' : ''}${percent}%`;
}
