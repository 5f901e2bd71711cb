/**
 * The lines `rig perf` prints: what was compared, each run, the B / A ratios with their spread
 * ("doublewrite off / on write QPS: ..."), and one closing line naming the axis.
 */
import type { PerfRecord } from './perf-record.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';
import { figureName, ratioName, type PerfFigure } from './ratio-name.js';
import { formatChange, type RatioSpread } from './ratio-spread.js';
import { flushingOf } from './perf-settings.js';

const spread = (r: RatioSpread): string => `${r.median.toFixed(3)} (min ${r.min.toFixed(3)}, max ${r.max.toFixed(3)}, ${r.pairs.length} pairs)`;

/** The figures a record has ratios for, in print order: TPS and write QPS lead, as a reader asks. */
function figures(record: PerfRecord): PerfFigure[] {
  return record.ratios.readQps ? ['writeQps', 'readQps', 'tps', 'p99Ms'] : ['writeQps', 'tps', 'p99Ms'];
}

/** Which page flushing the runs had: a perf ratio says as much about it as about the device. */
export function flushingText(record: PerfRecord): string {
  return flushingOf(record.settings[record.compare.a]) === 'stock' ? "stock flushing (the server's defaults)" : 'eager flushing (max_dirty_pages_pct=5, lwm 1, io_capacity=2000)';
}

function heading(record: PerfRecord): string {
  const { compare, workload } = record;
  const where = compare.axis === 'profile' ? `profiles ${compare.a} and ${compare.b}` : `profile ${record.profile.name}`;
  return `${compare.axis} ${compare.a} against ${compare.b}, ${where}, ${record.versions.server}, ${workload.test}, ${workload.seconds} s a run, ${workload.connections} threads, ${workload.tables} x ${workload.rows} rows, ${flushingText(record)}`;
}

/** "engine rocksdb / innodb on profile nvme, oltp_read_write, median of 3 pairs: TPS +21%, ..., p99 latency x0.45" */
export function comparisonLine(record: PerfRecord): string {
  const { compare } = record;
  const where = compare.axis === 'profile' ? `engine ${record.settings[compare.a]!.server.engine}` : `profile ${record.profile.name}`;
  const changes = figures(record).map((f) => {
    const r = record.ratios[f]!;
    return f === 'p99Ms' ? `${figureName(f)} x${r.median.toFixed(2)}` : `${figureName(f)} ${formatChange(r.median)}`;
  });
  return `${compare.axis} ${compare.b} / ${compare.a} on ${where}, ${flushingOf(record.settings[compare.a])} flushing, ${record.workload.test}, median of ${record.ratios.tps.pairs.length} pairs: ${changes.join(', ')}`;
}

export function formatPerfSummary(record: PerfRecord): string {
  const { compare } = record;
  const width = Math.max(compare.a.length, compare.b.length);
  const lines = [heading(record)];
  for (const run of record.runs) {
    const reads = record.ratios.readQps ? `  read QPS ${run.readQps.toFixed(1)}` : '';
    lines.push(`  ${run.repetition} ${compare.axis} ${run.setting.padEnd(width)}  write QPS ${run.writeQps.toFixed(1)}${reads}  TPS ${run.tps.toFixed(1)}  p99 ${run.p99Ms.toFixed(2)} ms`);
  }
  for (const f of figures(record)) lines.push(`${ratioName(compare, f)}: ${spread(record.ratios[f]!)}`);
  lines.push(comparisonLine(record));
  return lines.join('\n');
}

/** A campaign's progress line for one perf pair. */
export function perfPairLine(pair: PerfPairRecord): string {
  if (!pair.on || !pair.off) return `perf ${pair.id}: rig-error (${pair.error})`;
  return `perf ${pair.id}: write QPS on ${pair.on.writeQps.toFixed(1)}, off ${pair.off.writeQps.toFixed(1)} (off / on ${(pair.off.writeQps / pair.on.writeQps).toFixed(3)})`;
}
