/** Load throughput over time as an inline SVG line chart, with the cut drawn as a marked line. */
import { html, type Html } from '../html.js';

const W = 640;
const H = 180;
const PAD = { left: 52, right: 16, top: 14, bottom: 34 };

export interface ThroughputPoint {
  tMs: number;
  commits: number;
}

const MAX_POINTS = 90;

/** Merges neighbouring buckets so a long load draws at most MAX_POINTS points. */
export function downsample(points: ThroughputPoint[]): ThroughputPoint[] {
  const factor = Math.ceil(points.length / MAX_POINTS);
  if (factor <= 1) return points;
  const out: ThroughputPoint[] = [];
  for (let i = 0; i < points.length; i += factor) {
    const group = points.slice(i, i + factor);
    out.push({ tMs: group[group.length - 1]!.tMs, commits: group.reduce((n, p) => n + p.commits, 0) });
  }
  return out;
}

/** Commits per second per bucket: a bucket's width is the gap to the previous point. */
export function commitsPerSecond(points: ThroughputPoint[]): { t: number; rate: number }[] {
  return points.map((p, i) => {
    const prev = i === 0 ? 0 : points[i - 1]!.tMs;
    const width = Math.max(1, p.tMs - prev);
    return { t: p.tMs / 1000, rate: (p.commits * 1000) / width };
  });
}

/** A round step near range/4: 1, 2 or 5 times a power of ten. */
export function niceStep(range: number): number {
  const raw = Math.max(range, 1e-9) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function ticks(max: number): number[] {
  const step = niceStep(max);
  const out: number[] = [];
  for (let v = 0; v <= max + step / 2; v += step) out.push(Number(v.toPrecision(6)));
  return out;
}

export function throughputChart(points: ThroughputPoint[], cutAtMs: number | null): Html {
  if (points.length === 0) return html`<p class="muted">No throughput samples were recorded.</p>`;
  const series = commitsPerSecond(downsample(points));
  const tMax = Math.max(series[series.length - 1]!.t, (cutAtMs ?? 0) / 1000, 1);
  const yTicks = ticks(Math.max(...series.map((s) => s.rate), 1));
  const xTicks = ticks(tMax);
  const xMax = Math.max(tMax, xTicks[xTicks.length - 1]!);
  const yMax = yTicks[yTicks.length - 1]!;
  const x = (t: number) => PAD.left + (t / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);
  const line = series.map((s) => `${x(s.t).toFixed(1)},${y(s.rate).toFixed(1)}`).join(' ');
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Commits per second over time${cutAtMs === null ? '' : `, cut at ${(cutAtMs / 1000).toFixed(1)} s`}">
${yTicks.map((v) => html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}"/><text class="tick" x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`)}
${xTicks.filter((t) => t <= xMax).map((t) => html`<text class="tick" x="${x(t)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${t}</text>`)}
<text class="axis" x="${(PAD.left + W - PAD.right) / 2}" y="${H - 4}" text-anchor="middle">seconds since load start</text>
<text class="axis" x="12" y="${PAD.top + (H - PAD.top - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${PAD.top + (H - PAD.top - PAD.bottom) / 2})">commits/s</text>
<polyline class="series" points="${line}"/>
${cutAtMs === null ? null : cutMarker(x(cutAtMs / 1000), cutAtMs)}
</svg>`;
}

function cutMarker(cx: number, cutAtMs: number): Html {
  const anchor = cx > W - 120 ? 'end' : 'start';
  const dx = anchor === 'end' ? -6 : 6;
  return html`<g class="cut"><line x1="${cx}" x2="${cx}" y1="${PAD.top - 4}" y2="${H - PAD.bottom}"/><text x="${cx + dx}" y="${PAD.top + 8}" text-anchor="${anchor}">⚡ power cut at ${(cutAtMs / 1000).toFixed(2)} s</text></g>`;
}
