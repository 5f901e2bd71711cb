/** Parses sysbench's interval reports ("[ 2s ] thds: 4 tps: 812.93 qps: ...") into buckets. */
import type { ThroughputBucket } from './types.js';

const REPORT = /^\[\s*(\d+(?:\.\d+)?)s\s*\]\s+thds:\s*\d+\s+tps:\s*([\d.]+)/;

/** One bucket per report: the interval that ended at the reported second. */
export function readSysbenchReport(line: string, intervalMs: number): ThroughputBucket | null {
  const match = REPORT.exec(line.trim());
  if (!match) return null;
  const endMs = Math.round(Number(match[1]) * 1000);
  return { tMs: endMs - intervalMs, commits: Math.round((Number(match[2]) * intervalMs) / 1000) };
}

/** The first FATAL or error line sysbench printed, for the load's errors. */
export function sysbenchFailure(output: string): string | null {
  return output.split('\n').find((line) => /FATAL|error \d+/i.test(line))?.trim() ?? null;
}
