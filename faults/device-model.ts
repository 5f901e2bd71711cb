/**
 * What kind of device the power-fail disk is: its write cache (volatile: a write is durable once a
 * flush covers it; durable, power-loss protected: once it completes) and its timing, which the
 * helper applies to every request (faults/helper/timing.h). Profiles name such a model
 * (faults/device-profile.ts); the disk itself is always told one.
 */
export const CACHE_MODES = ['volatile', 'durable'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/** A point of a latency distribution: at `percent` (0..100) the service time is `us` microseconds. */
export interface LatencyPoint {
  percent: number;
  us: number;
}

export interface DeviceModel {
  cache: CacheMode;
  /** A write's service time as points from 0 to 100 percent, interpolated; empty: none added. */
  writeLatency: LatencyPoint[];
  flushLatency: LatencyPoint[];
  iops: number; // requests (reads and writes) started a second, at most; 0: no limit
  bandwidthBytes: number; // bytes a second, at most; 0: no limit
  queueDepth: number; // requests in service at once; 0: no bound of the disk's own
}

function latencyArg(flag: string, points: LatencyPoint[]): string[] {
  return points.length ? [`${flag}=${points.map((p) => `${p.percent}:${p.us}`).join(',')}`] : [];
}

/** The helper's flags for a model. */
export function deviceHelperArgs(model: DeviceModel, seed: number): string[] {
  return [
    `--cache=${model.cache}`,
    ...latencyArg('--write-latency', model.writeLatency),
    ...latencyArg('--flush-latency', model.flushLatency),
    ...(model.iops ? [`--iops=${model.iops}`] : []),
    ...(model.bandwidthBytes ? [`--bandwidth=${model.bandwidthBytes}`] : []),
    ...(model.queueDepth ? [`--queue-depth=${model.queueDepth}`] : []),
    `--latency-seed=${seed}`,
  ];
}

/** The latency at a percentile, as the helper interpolates it; null with no latency. */
export function latencyAt(points: LatencyPoint[], percent: number): number | null {
  if (points.length === 0) return null;
  let i = 0;
  while (i < points.length - 2 && percent >= points[i + 1]!.percent) i++;
  const [a, b] = [points[i]!, points[i + 1]!];
  return a.us + ((percent - a.percent) / (b.percent - a.percent)) * (b.us - a.us);
}
