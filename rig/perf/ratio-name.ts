/**
 * How a B / A ratio is named where it is printed: the axis, B over A, then the figure
 * ("doublewrite off / on write QPS", "engine rocksdb / innodb p99 latency").
 */
import type { PerfAxis } from './perf-comparison.js';

export const PERF_FIGURES = ['tps', 'writeQps', 'readQps', 'p99Ms'] as const;
export type PerfFigure = (typeof PERF_FIGURES)[number];

const FIGURE_NAMES: Record<PerfFigure, string> = { tps: 'TPS', writeQps: 'write QPS', readQps: 'read QPS', p99Ms: 'p99 latency' };

export function figureName(figure: PerfFigure): string {
  return FIGURE_NAMES[figure];
}

export function ratioName(compare: { axis: PerfAxis; a: string; b: string }, figure: PerfFigure): string {
  return `${compare.axis} ${compare.b} / ${compare.a} ${figureName(figure)}`;
}
