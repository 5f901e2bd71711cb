/** The lines `rig perf` prints: each setting's runs, then the off / on ratios with their spread. */
import type { PerfPairRecord, PerfRecord } from './perf-record.js';
import type { RatioSpread } from './ratio-spread.js';

const spread = (r: RatioSpread): string => `${r.median.toFixed(3)} (min ${r.min.toFixed(3)}, max ${r.max.toFixed(3)}, ${r.pairs.length} pairs)`;

export function formatPerfSummary(record: PerfRecord): string {
  const lines = [`profile ${record.profile.name}, ${record.versions.server}, ${record.workload.seconds} s a run, ${record.workload.connections} threads, ${record.workload.tables} x ${record.workload.rows} rows`];
  for (const run of record.runs) {
    lines.push(`  ${run.repetition} doublewrite ${run.setting.padEnd(3)}  write QPS ${run.writeQps.toFixed(1)}  TPS ${run.tps.toFixed(1)}  p99 ${run.p99Ms.toFixed(2)} ms`);
  }
  lines.push(`doublewrite off / on write QPS: ${spread(record.ratios.writeQps)}`);
  lines.push(`doublewrite off / on TPS: ${spread(record.ratios.tps)}`);
  lines.push(`doublewrite off / on p99 latency: ${spread(record.ratios.p99Ms)}`);
  return lines.join('\n');
}

/** A campaign's progress line for one perf pair. */
export function perfPairLine(pair: PerfPairRecord): string {
  if (!pair.on || !pair.off) return `perf ${pair.id}: rig-error (${pair.error})`;
  return `perf ${pair.id}: write QPS on ${pair.on.writeQps.toFixed(1)}, off ${pair.off.writeQps.toFixed(1)} (off / on ${(pair.off.writeQps / pair.on.writeQps).toFixed(3)})`;
}
