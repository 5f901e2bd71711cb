/**
 * Does the power-fail disk keep the timing its device profile sets? fio through the disk (raw
 * loop device over the helper, never cut) for each profile named (default: essd, nvme, pmem) and
 * for `local` (the stack's own cost), in one run:
 *   - 4 KiB random writes at queue depth 1: write latency p50 and p99, measured against the
 *     profile's, both raw and with the local disk's latency at the same percentile taken off;
 *   - 4 KiB random writes at the profile's queue depth: IOPS against what the profile allows
 *     (its IOPS limit, its bandwidth limit, or queue depth / mean latency, whichever is lowest).
 * Prints each figure and its ratio (measured / configured); the target is within 15% (0.85-1.15).
 * A ratio far below it says this machine's FUSE path cannot reach the profile's rate.
 * Run from the project root as root: `make bench` or `node dist/bench/profile.js [--seconds N] [profiles...]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { latencyAt, type DeviceModel, type LatencyPoint } from '../faults/device-model.js';
import { readDeviceProfile, type DeviceProfile } from '../faults/device-profile.js';
import { startDisk, type PowerFailDisk } from '../faults/power-fail-disk.js';
import { checkAborted, runInterruptible } from '../rig/interrupts.js';

const SIZE = 256 * 1024 * 1024;
const BLOCK = 4096;
const args = process.argv.slice(2);
const secondsAt = args.indexOf('--seconds');
const SECONDS = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 6;
const named = args.filter((a, i) => !a.startsWith('--') && (secondsAt < 0 || i !== secondsAt + 1));
const PROFILES = named.length ? named : ['essd', 'nvme', 'pmem'];

interface Measured {
  p50: number; // completion latency, microseconds
  p99: number;
  iops: number;
}

async function fio(device: string, depth: number, signal: AbortSignal): Promise<Measured> {
  const { stdout } = await execa('fio', [
    '--name=bench', `--filename=${device}`, '--rw=randwrite', `--bs=${BLOCK}`, '--direct=1', '--ioengine=libaio',
    `--iodepth=${depth}`, `--runtime=${SECONDS}`, '--time_based', '--ramp_time=1', `--size=${SIZE}`,
    '--norandommap', '--randrepeat=1', '--output-format=json',
  ], { cancelSignal: signal });
  const w = (JSON.parse(stdout) as { jobs: { write: { iops: number; clat_ns: { percentile: Record<string, number> } } }[] }).jobs[0]!.write;
  return { p50: w.clat_ns.percentile['50.000000']! / 1000, p99: w.clat_ns.percentile['99.000000']! / 1000, iops: w.iops };
}

/** The mean of a latency given as points of its inverse CDF, interpolated linearly between them. */
function meanUs(points: LatencyPoint[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += ((points[i]!.percent - points[i - 1]!.percent) / 100) * ((points[i]!.us + points[i - 1]!.us) / 2);
  return sum;
}

/** What the profile lets 4 KiB writes at its queue depth reach, and which bound says so. */
function allowedIops(m: DeviceModel, depth: number): { iops: number; by: string } {
  const bounds: { iops: number; by: string }[] = [];
  if (m.iops) bounds.push({ iops: m.iops, by: 'IOPS limit' });
  if (m.bandwidthBytes) bounds.push({ iops: m.bandwidthBytes / BLOCK, by: 'bandwidth limit' });
  if (m.writeLatency.length) bounds.push({ iops: depth / (meanUs(m.writeLatency) / 1e6), by: `queue depth ${depth} / mean latency` });
  return bounds.sort((a, b) => a.iops - b.iops)[0] ?? { iops: Infinity, by: 'nothing' };
}

async function measure(profile: DeviceProfile, dir: string, signal: AbortSignal): Promise<{ qd1: Measured; deep: Measured; depth: number }> {
  const depth = profile.device.queueDepth || 32;
  let disk: PowerFailDisk | null = null;
  try {
    disk = await startDisk({
      dir: join(dir, profile.name), sizeBytes: SIZE, fs: 'none', atomicUnit: BLOCK, pageSize: 16384,
      trigger: { kind: 'manual' }, journalMaxBytes: 64 << 20, model: profile.device, signal,
    });
    const qd1 = await fio(disk.target, 1, signal);
    checkAborted(signal);
    return { qd1, deep: await fio(disk.target, depth, signal), depth };
  } finally {
    await disk?.down();
  }
}

const ratio = (measured: number, configured: number): string => `${(measured / configured).toFixed(2)}${Math.abs(measured / configured - 1) <= 0.15 ? '' : '  (outside 15%)'}`;
const us = (x: number): string => `${x.toFixed(0).padStart(6)} µs`;

async function bench(signal: AbortSignal): Promise<void> {
  const dir = mkdtempSync(join('/var/tmp', 'rig-bp-'));
  try {
    const profiles = PROFILES.map((name) => {
      const p = readDeviceProfile(name);
      if (!p.ok) throw new Error(p.problem);
      return p.value;
    });
    const local = readDeviceProfile('local');
    if (!local.ok) throw new Error(local.problem);
    const [load1] = loadavg();
    process.stdout.write(`host: ${cpus().length} CPUs, load average ${load1!.toFixed(1)} (figures from a busy host are not the disk's)\n`);
    const base = await measure(local.value, dir, signal);
    process.stdout.write(`local (the stack's own cost): QD1 p50 ${us(base.qd1.p50)}, p99 ${us(base.qd1.p99)}; QD${base.depth} ${base.deep.iops.toFixed(0)} IOPS\n`);
    for (const profile of profiles) {
      checkAborted(signal);
      const m = await measure(profile, dir, signal);
      const w = profile.device.writeLatency;
      const allowed = allowedIops(profile.device, m.depth);
      const lines = [`${profile.name} (${profile.device.cache} cache)`];
      for (const [pct, got, stack] of [[50, m.qd1.p50, base.qd1.p50], [99, m.qd1.p99, base.qd1.p99]] as const) {
        const want = latencyAt(w, pct);
        if (want === null) continue;
        const head = `  write p${pct} at QD1   configured ${us(want)}  measured ${us(got)}`;
        lines.push(want < stack
          ? `${head}: below the stack's own ${us(stack).trim()} here, not measurable`
          : `${head} (ratio ${ratio(got, want)})  less the stack's ${us(got - stack)} (ratio ${ratio(got - stack, want)})`);
      }
      const head = `  IOPS at QD${m.depth}      allowed ${allowed.iops.toFixed(0)} (${allowed.by})  measured ${m.deep.iops.toFixed(0)}`;
      lines.push(allowed.iops > base.deep.iops
        ? `${head}: beyond the stack's own ${base.deep.iops.toFixed(0)} here, not measurable`
        : `${head} (ratio ${ratio(m.deep.iops, allowed.iops)})`);
      process.stdout.write(lines.join('\n') + '\n');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runInterruptible(bench);
