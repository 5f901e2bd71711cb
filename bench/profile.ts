/**
 * Does the power-fail disk keep the timing its device profile sets? fio through the disk (raw
 * loop device over the helper, never cut) for each profile named (default: essd, nvme, pmem), in
 * one run:
 *   - write latency, 4 KiB random writes at queue depth 1, p50 and p99: measured against the
 *     profile's distribution as it comes through this machine's stack (bench/latency-prediction.ts:
 *     the configured time plus the stack's own, sampled in the same run on a disk whose service
 *     time is the profile's median, held constant). Where the stack's own time at a percentile is
 *     above the profile's, the stack decides that percentile and the line says it is not measurable;
 *   - the IOPS limit, 4 KiB random writes at the profile's queue depth, and the bandwidth limit,
 *     128 KiB writes: measured against what the profile allows (its limit, or queue depth / mean
 *     latency, whichever is lowest). Where that is more than half of what the stack alone carries
 *     here (a disk with no timing, measured in the same run), the stack would cap it: the limit is
 *     then checked at a rate the stack carries (a quarter of its own), on a copy of the profile,
 *     and the line says so; where it is still below the stack's own rate it is measured too.
 * Prints each figure and its ratio (measured / expected); the target is within 15% (0.85-1.15).
 * Run from the project root as root: `make bench` or `node dist/bench/profile.js [--seconds N] [profiles...]`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { latencyAt, type DeviceModel, type LatencyPoint } from '../faults/device-model.js';
import { readDeviceProfile } from '../faults/device-profile.js';
import { startDisk } from '../faults/start-disk.js';
import { checkAborted, runInterruptible } from '../rig/interrupts.js';
import { percentileOf, predictLatency } from './latency-prediction.js';
import { benchArgs } from './bench-args.js';

const SIZE = 256 * 1024 * 1024;
const SMALL = 4096;
const LARGE = 128 * 1024;
const { values, positionals: named } = benchArgs('usage: node dist/bench/profile.js [--seconds N] [profile ...]', { seconds: 'count' });
const SECONDS = Number(values.seconds ?? '6');
const PROFILES = named.length ? named : ['essd', 'nvme', 'pmem'];
const NO_TIMING: DeviceModel = { cache: 'durable', writeLatency: [], flushLatency: [], iops: 0, bandwidthBytes: 0, queueDepth: 0 };

interface Measured {
  latenciesUs: number[]; // every completion's latency, sorted
  iops: number;
  bytesPerSecond: number;
}

/** fio on `model`'s disk: random writes of `block` bytes at `depth` for SECONDS, every completion's latency kept. */
async function fio(model: DeviceModel, block: number, depth: number, dir: string, signal: AbortSignal): Promise<Measured> {
  const diskDir = mkdtempSync(join(dir, 'd-'));
  const disk = await startDisk({
    dir: diskDir, sizeBytes: SIZE, fs: 'none', atomicUnit: SMALL, pageSize: 16384,
    trigger: { kind: 'manual' }, journalMaxBytes: 64 << 20, model, signal,
  });
  try {
    const log = join(diskDir, 'lat');
    const { stdout } = await execa('fio', [
      '--name=bench', `--filename=${disk.target}`, '--rw=randwrite', `--bs=${block}`, '--direct=1', '--ioengine=libaio',
      `--iodepth=${depth}`, `--runtime=${SECONDS}`, '--time_based', '--ramp_time=1', `--size=${SIZE}`,
      '--norandommap', '--randrepeat=1', '--output-format=json', `--write_lat_log=${log}`, '--log_avg_msec=0',
    ], { cancelSignal: signal });
    const w = (JSON.parse(stdout) as { jobs: { write: { iops: number; bw_bytes: number } }[] }).jobs[0]!.write;
    const latenciesUs = readFileSync(`${log}_clat.1.log`, 'utf8').split('\n').filter(Boolean).map((line) => Number(line.split(',')[1]) / 1000);
    return { latenciesUs: latenciesUs.sort((a, b) => a - b), iops: w.iops, bytesPerSecond: w.bw_bytes };
  } finally {
    await disk.down();
  }
}

/** The mean of a latency given as points of its inverse CDF, interpolated linearly between them. */
function meanUs(points: LatencyPoint[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += ((points[i]!.percent - points[i - 1]!.percent) / 100) * ((points[i]!.us + points[i - 1]!.us) / 2);
  return sum;
}

/** Requests a second the model lets writes of `block` bytes at `depth` reach, and which bound says so. */
function allowedRate(m: DeviceModel, block: number, depth: number): { rate: number; by: string } {
  const bounds: { rate: number; by: string }[] = [];
  if (m.iops) bounds.push({ rate: m.iops, by: 'IOPS limit' });
  if (m.bandwidthBytes) bounds.push({ rate: m.bandwidthBytes / block, by: 'bandwidth limit' });
  if (m.writeLatency.length) bounds.push({ rate: depth / (meanUs(m.writeLatency) / 1e6), by: `queue depth ${depth} / mean latency` });
  return bounds.sort((a, b) => a.rate - b.rate)[0] ?? { rate: Infinity, by: 'nothing' };
}

const ratio = (measured: number, expected: number): string => `ratio ${(measured / expected).toFixed(2)}${Math.abs(measured / expected - 1) <= 0.15 ? '' : ' (outside 15%)'}`;
const us = (x: number): string => `${x.toFixed(0)} µs`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB/s`;

/** The limit lines for one block size: at the profile's own rate where the stack carries it, else on a copy limited to a quarter of the stack's rate. */
async function limitLine(model: DeviceModel, block: number, depth: number, stackRate: number, dir: string, signal: AbortSignal): Promise<string> {
  const allowed = allowedRate(model, block, depth);
  const show = (rate: number): string => (block === SMALL ? `${rate.toFixed(0)} IOPS` : mib(rate * block));
  const what = block === SMALL ? `IOPS, ${block / 1024} KiB at QD${depth}` : `bandwidth, ${block / 1024} KiB at QD${depth}`;
  if (allowed.rate <= stackRate / 2) {
    const m = await fio(model, block, depth, dir, signal);
    return `  ${what}: allowed ${show(allowed.rate)} (${allowed.by}), measured ${show(m.iops)} (${ratio(m.iops, allowed.rate)})`;
  }
  const rate = Math.floor(stackRate / 4);
  const scaled: DeviceModel = block === SMALL ? { ...model, iops: rate, bandwidthBytes: 0 } : { ...model, iops: 0, bandwidthBytes: rate * block };
  const m = await fio(scaled, block, depth, dir, signal);
  const line = `  ${what}: the profile allows ${show(allowed.rate)} (${allowed.by}), more than half the stack's own ${show(stackRate)} here; ` +
    `its ${block === SMALL ? 'IOPS' : 'bandwidth'} limit set to ${show(rate)}: measured ${show(m.iops)} (${ratio(m.iops, rate)})`;
  if (allowed.rate >= stackRate) return line;
  // Below the stack's own rate, the profile's figure is reachable, though the stack shares in it: shown, for what it is.
  const own = await fio(model, block, depth, dir, signal);
  return `${line}\n  ${what}, at the profile's own ${show(allowed.rate)}: measured ${show(own.iops)} (${ratio(own.iops, allowed.rate)}; the stack's own cost is part of it)`;
}

async function bench(signal: AbortSignal): Promise<void> {
  const dir = mkdtempSync(join('/var/tmp', 'rig-bp-'));
  try {
    const profiles = PROFILES.map((name) => {
      const p = readDeviceProfile(name);
      if (!p.ok) throw new Error(p.problem);
      return p.value;
    });
    const [load1] = loadavg();
    process.stdout.write(`host: ${cpus().length} CPUs, load average ${load1!.toFixed(1)} (figures from a busy host are not the disk's)\n`);
    const stackSmall = await fio(NO_TIMING, SMALL, 32, dir, signal);
    const stackLarge = await fio(NO_TIMING, LARGE, 32, dir, signal);
    process.stdout.write(`the stack alone (no timing): ${stackSmall.iops.toFixed(0)} IOPS at 4 KiB QD32, ${mib(stackLarge.bytesPerSecond)} at 128 KiB QD32\n`);
    for (const profile of profiles) {
      checkAborted(signal);
      const model = profile.device;
      const lines = [`${profile.name} (${model.cache} cache)`];
      if (model.writeLatency.length) {
        const median = latencyAt(model.writeLatency, 50)!;
        const probe = await fio({ ...NO_TIMING, cache: model.cache, writeLatency: [{ percent: 0, us: median }, { percent: 100, us: median }] }, SMALL, 1, dir, signal);
        const stackUs = probe.latenciesUs.map((l) => Math.max(0, l - median));
        const measured = await fio(model, SMALL, 1, dir, signal);
        const prediction = predictLatency(model.writeLatency, stackUs, [50, 99]);
        lines.push(`  the stack around a ${us(median)} sleep adds p50 ${us(percentileOf(stackUs, 50))}, p99 ${us(percentileOf(stackUs, 99))} (${stackUs.length} writes)`);
        for (const [i, pct] of [50, 99].entries()) {
          const got = percentileOf(measured.latenciesUs, pct);
          const [configured, through, stack] = [latencyAt(model.writeLatency, pct)!, prediction.throughStack[i]!, percentileOf(stackUs, pct)];
          const head = `  write p${pct} at QD1: configured ${us(configured)}, through the stack ${us(through)}, measured ${us(got)}`;
          lines.push(stack > configured ? `${head}: the stack's own p${pct} (${us(stack)}) is above the profile's here, not measurable` : `${head} (${ratio(got, through)})`);
        }
      }
      const depth = model.queueDepth || 32;
      lines.push(await limitLine(model, SMALL, depth, stackSmall.iops, dir, signal));
      lines.push(await limitLine(model, LARGE, depth, stackLarge.iops, dir, signal));
      process.stdout.write(lines.join('\n') + '\n');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runInterruptible(bench);
