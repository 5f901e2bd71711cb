/**
 * The durable cache mode through the real stack (loop device over the FUSE helper), against a
 * model: a write is durable once it completes, so at a cut only writes still in flight may be
 * lost or torn. Several writers run seeded programs of direct writes at once, each in a region of
 * its own and each waiting for one write before the next, on a disk whose writes take tens of
 * milliseconds: at the cut each writer has at most its last write in flight, every earlier one
 * must be in every crash image, and the in-flight one lands unit by unit as the plan says. Then
 * one program, cut once it has finished, side by side on a volatile and a durable disk.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { makePlan, unitSpan, type CrashPlan } from '../../faults/crash-plan.js';
import type { DeviceModel } from '../../faults/device-model.js';
import { loadJournal, type JournalEntry } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import { ORDER_LOG_FILE, readOrderLog } from '../../faults/order-log.js';
import { startDisk } from '../../faults/start-disk.js';
import { waitFor } from '../../faults/system.js';
import type { TriggerSpec } from '../../faults/trigger.js';
import { makeProgram, xfsIoArgs, type ProgramWrite, type Step } from '../../faults/selftest/write-program.js';

const WRITERS = 4;
const REGION = 256 * 1024; // each writer's own; regions are REGION + GAP apart, so no request merges across them
const GAP = 64 * 1024;
const PLANS = 25;
const SLOW: DeviceModel = {
  cache: 'durable',
  // far longer than a writer's gap between two writes, even on a loaded machine, so that writers
  // are in flight at the cut: with 2-15 ms a busy run once found a single one
  writeLatency: [{ percent: 0, us: 40_000 }, { percent: 50, us: 80_000 }, { percent: 100, us: 120_000 }],
  flushLatency: [{ percent: 0, us: 100 }, { percent: 100, us: 500 }],
  iops: 0,
  bandwidthBytes: 0,
  queueDepth: 16,
};

const base = (w: number): number => w * (REGION + GAP);
const writesOf = (steps: Step[]): ProgramWrite[] => steps.flatMap((s) => (s.kind === 'write' ? [s.write] : []));

async function runDisk(t: Test, model: DeviceModel, unit: number, trigger: TriggerSpec) {
  const dir = mkdtempSync(join(tmpdir(), 'rig-durable-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 4 << 20, fs: 'none', atomicUnit: unit, pageSize: 16384, journalMaxBytes: 64 << 20, model, trigger });
  t.teardown(() => disk.down());
  return { dir, disk };
}

/** The crash image a durable disk must give: each writer's writes before `issued - 1` whole; its last issued one whole if it completed, else as the plan lands it. */
function expectedRegion(writes: ProgramWrite[], issued: number, inFlight: JournalEntry | undefined, plan: CrashPlan, planIndex: number, at: number): Buffer {
  const img = Buffer.alloc(REGION);
  const whole = inFlight ? issued - 1 : issued;
  for (const w of writes.slice(0, whole)) img.fill(w.fill, w.offset, w.offset + w.length);
  if (inFlight) {
    const w = writes[issued - 1]!;
    const { first } = unitSpan(at + w.offset, w.length, plan.atomicUnit);
    for (const u of plan.writes[planIndex]!.unitsLanded) {
      const from = Math.max(at + w.offset, (first + u) * plan.atomicUnit) - at;
      const to = Math.min(at + w.offset + w.length, (first + u + 1) * plan.atomicUnit) - at;
      img.fill(w.fill, from, to);
    }
  }
  return img;
}

for (const [name, unit, seed] of [['4k units', 4096, 31], ['16k units', 16384, 32], ['512-byte units', 512, 33]] as const) {
  t.test(`durable cache, ${name}: completed writes survive every plan, only in-flight ones tear`, async (t) => {
    const { dir, disk } = await runDisk(t, SLOW, unit, { kind: 'after-writes', writes: 90 });
    const programs = Array.from({ length: WRITERS }, (_, w) =>
      makeProgram({ seed: seed * 10 + w, writes: 60, regionBytes: REGION, flushChance: 0.05, mix: w % 2 ? 'pages' : 'sizes' }));
    const writers = programs.map((steps, w) => execa('xfs_io', xfsIoArgs(steps, disk.target, base(w)), { reject: false }));
    t.ok(await disk.waitCut(120_000), 'the cut fired among the writes');
    const status = await disk.cutStatus();
    await disk.down();
    await Promise.all(writers);
    const journal = loadJournal(join(dir, 'journal.bin'));
    const order = readOrderLog(join(dir, ORDER_LOG_FILE)) ?? [];
    const arrived = order.flatMap((e) => (e.kind === 'write' ? [e] : []));
    t.equal(status.cutPending, journal.length, 'the status counts the journal at the cut');
    // without a write in flight the model check has nothing to tear; a writer's gap between two
    // writes is far shorter than a write, so one is in flight unless every writer stalls at once
    t.ok(journal.length >= 1, `writes were in flight at the cut (${journal.length} of ${WRITERS} writers)`);
    t.equal(order.filter((e) => e.kind === 'complete').length, arrived.length - journal.length, 'every write that reached the disk completed, or is in the journal');
    const inRegion = (offset: number, w: number) => offset >= base(w) && offset < base(w) + REGION;
    const perWriter = programs.map((steps, w) => {
      const issued = arrived.filter((e) => inRegion(e.offset, w)).length;
      const flying = journal.filter((e) => inRegion(e.offset, w));
      return { writes: writesOf(steps), issued, flying };
    });
    perWriter.forEach(({ writes, issued, flying }, w) => {
      t.ok(flying.length <= 1, `writer ${w}: at most one write in flight (${flying.length})`);
      const last = writes[issued - 1];
      if (flying[0] && last) t.same([flying[0].offset - base(w), flying[0].length], [last.offset, last.length], `writer ${w}: the one in flight is its last issued write`);
    });
    let failures = 0;
    for (let p = 0; p < PLANS && failures < 3; p++) {
      const plan = makePlan(journal, seed * 1000 + p, unit);
      const out = join(dir, `crash-${p}.img`);
      await materializeCrashImage(join(dir, 'image.img'), journal, plan, out);
      const crash = readFileSync(out);
      perWriter.forEach(({ writes, issued, flying }, w) => {
        const expected = expectedRegion(writes, issued, flying[0], plan, flying[0] ? journal.indexOf(flying[0]) : -1, base(w));
        if (!crash.subarray(base(w), base(w) + REGION).equals(expected)) {
          failures++;
          t.fail(`plan seed ${seed * 1000 + p}, writer ${w}: the crash image differs from the model`);
        }
      });
      rmSync(out);
    }
    t.equal(failures, 0, `${PLANS} seeded crash images keep every completed write and tear only in-flight ones, unit by unit`);
  });
}

t.test('completed, unflushed writes: a volatile disk can lose them, a durable one cannot', async (t) => {
  const steps = makeProgram({ seed: 41, writes: 40, regionBytes: REGION, flushChance: 0, mix: 'pages' });
  const volatileModel: DeviceModel = { ...SLOW, cache: 'volatile' };
  const journals: Record<string, JournalEntry[]> = {};
  for (const model of [volatileModel, SLOW]) {
    const { dir, disk } = await runDisk(t, model, 4096, { kind: 'manual' });
    const done = await execa('xfs_io', xfsIoArgs(steps, disk.target), { reject: false });
    t.equal(done.exitCode, 0, `${model.cache}: the program ran to its end: ${done.stderr}`);
    await disk.cut();
    await disk.down();
    journals[model.cache] = loadJournal(join(dir, 'journal.bin'));
  }
  t.equal(journals.volatile!.length, 40, 'volatile: all 40 completed writes are still pending without a flush');
  const dropAll = makePlan(journals.volatile!, 1, 4096, { land: 0, drop: 1, tear: 0 });
  t.ok(dropAll.writes.every((w) => w.fate === 'dropped'), 'volatile: a plan may drop every one of them');
  t.equal(journals.durable!.length, 0, 'durable: nothing is pending once every write completed, so no plan can lose one');
});

t.test('durable cache, armed with a copy range: copies count as durable once they complete, home writes as pending while in flight', async (t) => {
  const PAGE = 16384;
  const slow: DeviceModel = { ...SLOW, writeLatency: [{ percent: 0, us: 3_000_000 }, { percent: 100, us: 3_000_000 }], flushLatency: [] };
  const { dir, disk } = await runDisk(t, slow, 4096, { kind: 'manual' });
  await disk.addCopyRange(0, 4 * PAGE);
  await disk.arm({ kind: 'armed', pendingPageWrites: 2 });
  const pwrite = (fill: number, at: number) => ['-c', `pwrite -q -b ${PAGE} -S 0x${fill.toString(16)} ${at} ${PAGE}`];
  const copies = await execa('xfs_io', ['-d', ...pwrite(0xaa, 0), ...pwrite(0xbb, PAGE), disk.target], { reject: false });
  t.equal(copies.exitCode, 0, 'the copies completed, with no flush');
  const homes = [execa('xfs_io', ['-d', ...pwrite(0xaa, 1 << 20), disk.target], { reject: false }), execa('xfs_io', ['-d', ...pwrite(0xbb, (1 << 20) + PAGE), disk.target], { reject: false })];
  t.ok(await waitFor(async () => (await disk.status()).inService >= 2, 30_000, 20), 'both home writes are in service');
  const flusher = execa('xfs_io', ['-c', 'fsync', disk.target], { reject: false });
  const status = await disk.waitCut(30_000);
  t.equal(status?.cutReason, 'armed', 'the flush found two home writes in flight whose copies are durable');
  await disk.down();
  await Promise.all([...homes, flusher]);
  const journal = loadJournal(join(dir, 'journal.bin')).map((e) => [e.offset, e.new[0]]).sort((a, b) => a[0]! - b[0]!);
  t.same(journal, [[1 << 20, 0xaa], [(1 << 20) + PAGE, 0xbb]], 'the journal holds the two home writes in flight; the completed copies are not in it');
});

t.test('nothing is left mounted or attached', async (t) => {
  const { stdout } = await execa('losetup', ['-a']);
  t.notMatch(stdout, /rig-durable-/, 'no loop device of these tests remains');
  t.notMatch(readFileSync('/proc/self/mountinfo', 'utf8'), /rig-durable-/, 'no mount of these tests remains');
});
