/** Load throughput over time as an inline SVG step chart, with the cut drawn as a marked line. */
import { html, type Html } from '../html.js';

const W = 640;
const H = 180;
const PAD = { left: 58, right: 16, top: 14, bottom: 34 };
const MAX_STEPS = 90;

/** Commits acknowledged in a bucket of time that starts at tMs (rig/load/throughput.ts). */
export interface ThroughputPoint {
  tMs: number;
  commits: number;
}

/** A rate over a real interval of the load, in commits per second. */
export interface RateStep {
  fromS: number;
  toS: number;
  rate: number;
}

/**
 * The buckets' width: the gap between their starts (the recorder keeps empty buckets, so the
 * smallest gap is the width). A lone bucket ran from its start to the cut, or, with no cut after
 * it, is taken as a second.
 */
function bucketWidth(points: ThroughputPoint[], cutAtMs: number | null): number {
  const gaps = points.slice(1).map((p, i) => p.tMs - points[i]!.tMs).filter((gap) => gap > 0);
  if (gaps.length > 0) return Math.min(...gaps);
  const start = points[0]!.tMs;
  return cutAtMs !== null && cutAtMs > start ? cutAtMs - start : 1000;
}

/**
 * Commits per second over the intervals they were counted in: each bucket is as wide as the gap
 * between bucket starts, and the last one ends at the cut when the cut falls inside it (no commit
 * is acknowledged after the cut). Buckets are merged into at most MAX_STEPS steps of equal width,
 * so a long load draws as many points as a short one, and every commit is in exactly one step.
 */
export function commitRates(points: ThroughputPoint[], cutAtMs: number | null): RateStep[] {
  if (points.length === 0) return [];
  const sorted = [...points].sort((a, b) => a.tMs - b.tMs);
  const width = bucketWidth(sorted, cutAtMs);
  const last = sorted[sorted.length - 1]!.tMs;
  const end = cutAtMs !== null && cutAtMs > last && cutAtMs < last + width ? cutAtMs : last + width;
  const stepMs = width * Math.max(1, Math.ceil(end / width / MAX_STEPS));
  const steps: RateStep[] = [];
  for (let from = 0; from < end; from += stepMs) {
    const to = Math.min(from + stepMs, end);
    const commits = sorted.filter((p) => p.tMs >= from && p.tMs < from + stepMs).reduce((n, p) => n + p.commits, 0);
    steps.push({ fromS: from / 1000, toS: to / 1000, rate: commits / ((to - from) / 1000) });
  }
  return steps;
}

/** A round step near range/4: 1, 2 or 5 times a power of ten. */
export function niceStep(range: number): number {
  const raw = Math.max(range, 1e-9) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

/** Round ticks from 0 to the first one at or above max, so the axis holds every value. */
export function ticks(max: number): number[] {
  const step = niceStep(max);
  const out = [0];
  while (out[out.length - 1]! < max) out.push(Number((out.length * step).toPrecision(6)));
  return out;
}

/** 1500 -> "1.5k": tick labels stay short enough to leave the axis title in view. */
export function shortNumber(v: number): string {
  return v >= 1000 ? `${Number((v / 1000).toPrecision(4))}k` : String(v);
}

export function throughputChart(points: ThroughputPoint[], cutAtMs: number | null): Html {
  if (points.length === 0) return html`<p class="muted">No throughput samples were recorded.</p>`;
  const steps = commitRates(points, cutAtMs);
  const tMax = Math.max(steps[steps.length - 1]!.toS, (cutAtMs ?? 0) / 1000, 1);
  const yTicks = ticks(Math.max(...steps.map((s) => s.rate), 1));
  const xTicks = ticks(tMax);
  const xMax = Math.max(tMax, xTicks[xTicks.length - 1]!);
  const yMax = yTicks[yTicks.length - 1]!;
  const x = (t: number) => PAD.left + (t / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const line = steps.flatMap((s) => [`${x(s.fromS).toFixed(1)},${y(s.rate).toFixed(1)}`, `${x(s.toS).toFixed(1)},${y(s.rate).toFixed(1)}`]).join(' ');
  const midY = PAD.top + (H - PAD.top - PAD.bottom) / 2;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Commits acknowledged per second over time${cutAtMs === null ? '' : `, cut at ${(cutAtMs / 1000).toFixed(1)} s`}">
${yTicks.map((v) => html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}"/><text class="tick" x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${shortNumber(v)}</text>`)}
${xTicks.filter((t) => t <= xMax).map((t) => html`<text class="tick" x="${x(t)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${t}</text>`)}
<text class="axis" x="${(PAD.left + W - PAD.right) / 2}" y="${H - 4}" text-anchor="middle">seconds since the load started</text>
<text class="axis" x="12" y="${midY}" text-anchor="middle" transform="rotate(-90 12 ${midY})">commits per second</text>
<polyline class="series" points="${line}"/>
${cutAtMs === null ? null : cutMarker(x(cutAtMs / 1000), cutAtMs)}
</svg>`;
}

function cutMarker(cx: number, cutAtMs: number): Html {
  const anchor = cx > W - 120 ? 'end' : 'start';
  const dx = anchor === 'end' ? -6 : 6;
  return html`<g class="cut"><line x1="${cx}" x2="${cx}" y1="${PAD.top - 4}" y2="${H - PAD.bottom}"/><text x="${cx + dx}" y="${PAD.top + 8}" text-anchor="${anchor}">⚡ power cut at ${(cutAtMs / 1000).toFixed(2)} s</text></g>`;
}
