/**
 * `rig disk selftest`: does the power-fail disk keep its model on this machine, through the real
 * stack of the chosen backend? Per seed, a program of direct writes and flushes on a raw disk, a
 * cut (at its end, or by an after-writes trigger), and seeded crash images checked sector by
 * sector against what the program wrote: flushed data intact, every atomic unit whole or absent,
 * and across all seeds aligned 16 KiB writes never torn at atomic 16k but torn at 4k.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { makePlan } from '../crash-plan.js';
import type { DeviceModel } from '../device-model.js';
import type { DiskEnvironment } from '../disk-environment.js';
import type { DiskBackend } from '../disk-record.js';
import { loadJournal } from '../journal.js';
import { materializeCrashImage } from '../materialize.js';
import { startDisk } from '../start-disk.js';
import type { TriggerSpec } from '../trigger.js';
import { expectedImage, unitsWholeOrAbsent } from './model.js';
import { makeProgram, splitAtCut, splitAtFlushes, xfsIoArgs, type ProgramOptions } from './write-program.js';

const REGION = 1 << 20;

/** The kinds of run, taken in turn by seed: atomic unit, write sizes, and where the cut falls. */
export const RUN_KINDS: { unit: number; mix: ProgramOptions['mix']; cutAfter: number | null }[] = [
  { unit: 4096, mix: 'sizes', cutAfter: null },
  { unit: 512, mix: 'sizes', cutAfter: null },
  { unit: 65536, mix: 'sizes', cutAfter: 150 },
  { unit: 4096, mix: 'pages', cutAfter: null },
  { unit: 4096, mix: 'pages', cutAfter: 120 },
  { unit: 16384, mix: 'pages', cutAfter: null },
  { unit: 16384, mix: 'pages', cutAfter: 90 },
  { unit: 8192, mix: 'pages', cutAfter: null },
];

export interface SelftestOptions {
  backend: DiskBackend;
  seeds: number[];
  plansPerSeed: number;
  /** Seeds run at once, each on its own disk (default 1). */
  jobs?: number;
  model: DeviceModel;
  environment?: DiskEnvironment;
  onSeed?: (done: number, of: number, seed: SeedResult) => void;
  /** Aborted: no seed starts after it, and the run throws its reason once the seeds under way end. */
  signal?: AbortSignal;
}

export interface SeedResult {
  seed: number;
  unit: number;
  mix: ProgramOptions['mix'];
  cut: 'end' | 'after-writes';
  issued: number; // program writes issued before the cut
  pending: number;
  images: number;
  problems: string[];
}

export interface SelftestResult {
  backend: DiskBackend;
  seeds: SeedResult[];
  images: number;
  /** Torn 16 KiB writes by atomic unit: 16 KiB-aligned ones, and misaligned ones. */
  alignedPagesTorn: Record<number, number>;
  misalignedPagesTorn: Record<number, number>;
  /** What fails the model: per-seed problems, and the atomic-unit claims across all seeds. */
  problems: string[];
}

async function oneSeed(opts: SelftestOptions, seed: number, result: SelftestResult): Promise<SeedResult> {
  const kind = RUN_KINDS[seed % RUN_KINDS.length]!;
  const out: SeedResult = { seed, unit: kind.unit, mix: kind.mix, cut: kind.cutAfter ? 'after-writes' : 'end', issued: 0, pending: 0, images: 0, problems: [] };
  const dir = mkdtempSync(join(tmpdir(), 'rig-selftest-'));
  try {
    const trigger: TriggerSpec = kind.cutAfter ? { kind: 'after-writes', writes: kind.cutAfter } : { kind: 'manual' };
    const disk = await startDisk({
      dir, sizeBytes: 4 << 20, fs: 'none', atomicUnit: kind.unit, pageSize: 16384, journalMaxBytes: 256 << 20,
      model: opts.model, trigger, backend: opts.backend, ...(opts.environment ? { environment: opts.environment } : {}),
    });
    const steps = makeProgram({ seed, writes: 200, regionBytes: REGION, flushChance: 0.08, mix: kind.mix });
    let fired;
    try {
      const writer = execa('xfs_io', xfsIoArgs(steps, disk.target), { reject: false });
      if (kind.cutAfter) {
        fired = await disk.waitCut(60_000);
        if (!fired) out.problems.push('the after-writes trigger did not fire within 60 s');
      } else {
        const done = await writer;
        if (done.exitCode !== 0) out.problems.push(`the program failed: ${done.stderr.trim()}`);
        fired = await disk.cut();
      }
      await disk.release();
      await writer;
    } finally {
      const report = await disk.down();
      if (report.problems.length) out.problems.push(`teardown: ${report.problems.join('; ')}`);
    }
    if (out.problems.length || !fired) return out;
    // the FUSE disk holds the Nth write itself, before the program can issue anything after it;
    // the kernel path holds a little later, maybe with an fsync in flight, and its log says how
    // many writes and flushes completed before the hold
    const total = steps.filter((s) => s.kind === 'write').length;
    const settled = disk.settledStatus(fired);
    out.issued = opts.backend === 'dm' ? settled.writes : kind.cutAfter ?? total;
    const { durable, pending } = opts.backend === 'dm' ? splitAtFlushes(steps, out.issued, settled.flushes) : splitAtCut(steps, out.issued);
    const journal = loadJournal(join(dir, 'journal.bin'));
    out.pending = journal.length;
    const same = journal.length === pending.length && journal.every((e, i) => e.offset === pending[i]!.offset && e.length === pending[i]!.length);
    if (!same) {
      out.problems.push(`the journal holds ${journal.length} writes, not the ${pending.length} issued since the last completed flush before write ${out.issued}`);
      return out;
    }
    for (let p = 0; p < opts.plansPerSeed && out.problems.length < 3; p++) {
      const plan = makePlan(journal, seed * 1000 + p, kind.unit);
      const image = join(dir, `crash-${p}.img`);
      await materializeCrashImage(join(dir, 'image.img'), journal, plan, image);
      const crash = readFileSync(image).subarray(0, REGION);
      rmSync(image);
      out.images++;
      for (const [i, w] of plan.writes.entries()) {
        if (w.fate !== 'torn' || pending[i]!.length !== 16384) continue;
        const bucket = pending[i]!.offset % 16384 === 0 ? result.alignedPagesTorn : result.misalignedPagesTorn;
        bucket[kind.unit] = (bucket[kind.unit] ?? 0) + 1;
      }
      const whole = unitsWholeOrAbsent(crash, pending, kind.unit);
      if (!crash.equals(expectedImage(REGION, durable, pending, plan)) || whole) {
        out.problems.push(`plan seed ${seed * 1000 + p}: the crash image differs from the model${whole ? ` (${whole})` : ''}`);
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runSelftest(opts: SelftestOptions): Promise<SelftestResult> {
  const result: SelftestResult = { backend: opts.backend, seeds: [], images: 0, alignedPagesTorn: {}, misalignedPagesTorn: {}, problems: [] };
  const queue = [...opts.seeds];
  const worker = async (): Promise<void> => {
    for (let seed = queue.shift(); seed !== undefined && !opts.signal?.aborted; seed = queue.shift()) {
      const one = await oneSeed(opts, seed, result);
      result.seeds.push(one);
      result.images += one.images;
      opts.onSeed?.(result.seeds.length, opts.seeds.length, one);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.jobs ?? 1) }, worker));
  if (opts.signal?.aborted) throw opts.signal.reason;
  result.seeds.sort((a, b) => a.seed - b.seed);
  for (const one of result.seeds) result.problems.push(...one.problems.map((p) => `seed ${one.seed}: ${p}`));
  // the blindness claims need a run of every kind (a single seed replayed may tear nothing)
  const ran = (unit: number) => result.seeds.length >= RUN_KINDS.length && result.seeds.some((s) => s.unit === unit && s.mix === 'pages' && s.images > 0);
  if ((result.alignedPagesTorn[16384] ?? 0) > 0) result.problems.push(`${result.alignedPagesTorn[16384]} 16 KiB-aligned 16 KiB writes tore under atomic 16k`);
  if (ran(4096) && !(result.alignedPagesTorn[4096] ?? 0)) result.problems.push('no aligned 16 KiB write tore under atomic 4k: the check is blind');
  if (ran(16384) && !(result.misalignedPagesTorn[16384] ?? 0)) result.problems.push('no misaligned 16 KiB write tore at a 16 KiB boundary under atomic 16k: the check is blind');
  return result;
}
