/**
 * The power-fail disk against a model, through the real stack (loop device over the FUSE helper):
 * seeded programs of direct writes and flushes, a cut, and for each run many seeded crash images
 * checked sector by sector against what the program wrote.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { makePlan } from '../../faults/crash-plan.js';
import { loadJournal, type JournalEntry } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import { startDisk } from '../../faults/start-disk.js';
import type { TriggerSpec } from '../../faults/trigger.js';
import { makeProgram, splitAtCut, xfsIoArgs, type Step } from '../../faults/selftest/write-program.js';
import { expectedImage, unitsWholeOrAbsent } from '../../faults/selftest/model.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const PLANS_PER_RUN = 40;

interface Run {
  name: string;
  unit: number;
  seed: number;
  mix: 'sizes' | 'pages';
  cutAfter: number | null; // after-writes trigger, or null = manual cut once the program ends
}

const runs: Run[] = [
  { name: 'sizes at 4k', unit: 4096, seed: 11, mix: 'sizes', cutAfter: null },
  { name: 'sizes at 512', unit: 512, seed: 12, mix: 'sizes', cutAfter: null },
  { name: 'sizes at 64k', unit: 65536, seed: 13, mix: 'sizes', cutAfter: 150 },
  { name: 'pages at 4k', unit: 4096, seed: 14, mix: 'pages', cutAfter: null },
  { name: 'pages at 4k, cut by after-writes', unit: 4096, seed: 15, mix: 'pages', cutAfter: 120 },
  { name: 'pages at 16k', unit: 16384, seed: 16, mix: 'pages', cutAfter: null },
  { name: 'pages at 16k, cut by after-writes', unit: 16384, seed: 17, mix: 'pages', cutAfter: 90 },
  { name: 'pages at 8k', unit: 8192, seed: 18, mix: 'pages', cutAfter: null },
];

interface Tally {
  alignedPagesTorn: Record<number, number>;
  misalignedPagesTorn: Record<number, number>;
  images: number;
}
const tally: Tally = { alignedPagesTorn: {}, misalignedPagesTorn: {}, images: 0 };

async function runProgram(t: Test, run: Run): Promise<{ steps: Step[]; journal: JournalEntry[]; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rig-model-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const trigger: TriggerSpec = run.cutAfter ? { kind: 'after-writes', writes: run.cutAfter } : { kind: 'manual' };
  const disk = await startDisk({ dir, sizeBytes: 4 << 20, fs: 'none', atomicUnit: run.unit, pageSize: 16384, journalMaxBytes: 256 << 20, model: LOCAL.device, trigger });
  t.teardown(() => disk.down());
  const steps = makeProgram({ seed: run.seed, writes: 200, regionBytes: 1 << 20, flushChance: 0.08, mix: run.mix });
  const writer = execa('xfs_io', xfsIoArgs(steps, disk.target), { reject: false });
  if (run.cutAfter) {
    t.ok(await disk.waitCut(60_000), 'the after-writes trigger fired');
  } else {
    const done = await writer;
    t.equal(done.exitCode, 0, `the program ran: ${done.stderr}`);
    await disk.cut();
  }
  await disk.down();
  await writer;
  return { steps, journal: loadJournal(join(dir, 'journal.bin')), dir };
}

for (const run of runs) {
  t.test(run.name, async (t) => {
    const { steps, journal, dir } = await runProgram(t, run);
    const { durable, pending } = splitAtCut(steps, run.cutAfter ?? Infinity);
    t.same(
      journal.map((e) => [e.offset, e.length]),
      pending.map((w) => [w.offset, w.length]),
      'the journal holds exactly the writes issued since the last completed flush',
    );
    const region = 1 << 20;
    let failures = 0;
    for (let p = 0; p < PLANS_PER_RUN && failures < 3; p++) {
      const planSeed = run.seed * 1000 + p;
      const plan = makePlan(journal, planSeed, run.unit);
      const out = join(dir, `crash-${p}.img`);
      const sha = await materializeCrashImage(join(dir, 'image.img'), journal, plan, out);
      const crash = readFileSync(out).subarray(0, region);
      const expected = expectedImage(region, durable, pending, plan);
      const whole = unitsWholeOrAbsent(crash, pending, run.unit);
      tally.images++;
      for (const [i, w] of plan.writes.entries()) {
        if (w.fate !== 'torn' || pending[i]!.length !== 16384) continue;
        const bucket = pending[i]!.offset % 16384 === 0 ? tally.alignedPagesTorn : tally.misalignedPagesTorn;
        bucket[run.unit] = (bucket[run.unit] ?? 0) + 1;
      }
      if (!crash.equals(expected) || whole) {
        failures++;
        t.fail(`plan seed ${planSeed}: crash image differs from the model${whole ? ` (${whole})` : ''}`);
      }
      if (p === 0) {
        const again = await materializeCrashImage(join(dir, 'image.img'), journal, plan, out + '.again');
        t.equal(again, sha, 'the same journal and plan rebuild a byte-identical image');
        rmSync(out + '.again');
      }
      rmSync(out);
    }
    t.equal(failures, 0, `${PLANS_PER_RUN} seeded crash images match the model sector for sector`);
  });
}

t.test('atomic units protect aligned pages and only aligned pages', async (t) => {
  t.comment(`images checked: ${tally.images}; torn 16k writes: aligned ${JSON.stringify(tally.alignedPagesTorn)}, misaligned ${JSON.stringify(tally.misalignedPagesTorn)}`);
  t.equal(tally.alignedPagesTorn[16384] ?? 0, 0, 'no 16 KiB-aligned 16 KiB write tore under atomic 16k');
  t.ok((tally.alignedPagesTorn[4096] ?? 0) > 0, 'aligned 16 KiB writes tore under atomic 4k');
  t.ok((tally.misalignedPagesTorn[16384] ?? 0) > 0, 'a misaligned 16 KiB write tore at the 16 KiB boundary under atomic 16k');
  t.ok(tally.images >= 300, 'hundreds of seeded crash images were checked');
});

t.test('nothing is left mounted or attached', async (t) => {
  const { stdout } = await execa('losetup', ['-a']);
  t.notMatch(stdout, /rig-model-/, 'no loop device of these tests remains');
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8');
  t.notMatch(mounts, /rig-model-/, 'no mount of these tests remains');
});

