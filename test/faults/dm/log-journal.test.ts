/**
 * The dm disk's log as the kernel writes it (faults/dm/log-writes.ts), read back, and the journal
 * built from it (faults/dm/log-journal.ts), against a byte-array model of the device: seeded
 * programs of overlapping writes, discards, FUA writes and flushes, a cut mark, the writes still
 * unflushed then, the kernel's end mark. Every plan's crash image must be the model's: what was
 * logged before the cut mark in full, then the plan's landed units in order. `DM_SEED=N` replays
 * one seed; `DM_SEEDS=N` runs seeds 1 to N (40 by default: each builds three images with `cp`).
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePlan, unitSpan, type CrashPlan } from '../../../faults/crash-plan.js';
import { ARM_MARK, cutOfLog, journalOfLog, settleImage } from '../../../faults/dm/log-journal.js';
import {
  CUT_MARK,
  DISCARD_FLAG,
  END_MARK,
  FLUSH_FLAG,
  FUA_FLAG,
  encodeWriteLog,
  indexWriteLog,
  type EncodableEntry,
} from '../../../faults/dm/log-writes.js';
import { encodeJournal, parseJournal } from '../../../faults/journal.js';
import { materializeCrashImage } from '../../../faults/materialize.js';
import { createRng, type Rng } from '../../../faults/prng.js';
import { ATOMIC_UNITS } from '../../../faults/sizes.js';

const SIZE = 256 * 1024;
const PAGE = 16384;
const SEEDS = process.env.DM_SEED ? [Number(process.env.DM_SEED)] : Array.from({ length: Number(process.env.DM_SEEDS) || 40 }, (_, i) => i + 1);

const dir = mkdtempSync(join(tmpdir(), 'rig-dmlog-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function bytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i += 4) b.writeUInt32LE(rng.int(2 ** 32), i);
  return b;
}

interface Program {
  entries: EncodableEntry[];
  durable: Buffer; // the device as the log says it was durable at the cut
  pending: { offset: number; data: Buffer }[];
}

/** A log: durable entries (writes, page writes, discards, FUA writes, flushes), the cut mark, the
 * unflushed writes, the end mark. The model applies everything before the mark to `base`. */
function program(rng: Rng, base: Buffer): Program {
  const durable = Buffer.from(base);
  const entries: EncodableEntry[] = [];
  const write = (): { offset: number; data: Buffer } => {
    if (rng.next() < 0.4) {
      const offset = PAGE * rng.int(SIZE / PAGE) + (rng.next() < 0.3 ? 4096 : 0);
      return { offset: Math.min(offset, SIZE - PAGE), data: bytes(rng, PAGE) };
    }
    const length = 512 * (1 + rng.int(64));
    return { offset: 512 * rng.int((SIZE - length) / 512 + 1), data: bytes(rng, length) };
  };
  const durableCount = rng.int(40);
  if (rng.next() < 0.5) entries.push({ kind: 'mark', text: ARM_MARK });
  for (let i = 0; i < durableCount; i++) {
    const roll = rng.next();
    if (roll < 0.1) {
      entries.push({ kind: 'flush' });
    } else if (roll < 0.17) {
      const length = 4096 * (1 + rng.int(4));
      const offset = 4096 * rng.int((SIZE - length) / 4096 + 1);
      entries.push({ kind: 'discard', offset, length });
      durable.fill(0, offset, offset + length);
    } else {
      const w = write();
      entries.push({ kind: 'write', ...w, ...(roll < 0.22 ? { flags: FUA_FLAG } : {}) });
      w.data.copy(durable, w.offset);
    }
  }
  entries.push({ kind: 'flush', flags: FLUSH_FLAG });
  entries.push({ kind: 'mark', text: CUT_MARK });
  const pending = Array.from({ length: rng.int(25) }, write);
  for (const w of pending) entries.push({ kind: 'write', ...w });
  entries.push({ kind: 'mark', text: END_MARK });
  return { entries, durable, pending };
}

function expected(durable: Buffer, pending: Program['pending'], plan: CrashPlan): Buffer {
  const img = Buffer.from(durable);
  pending.forEach((w, i) => {
    const { first } = unitSpan(w.offset, w.data.length, plan.atomicUnit);
    for (const u of plan.writes[i]!.unitsLanded) {
      const from = Math.max(w.offset, (first + u) * plan.atomicUnit);
      const to = Math.min(w.offset + w.data.length, (first + u + 1) * plan.atomicUnit);
      w.data.copy(img, from, from - w.offset, to - w.offset);
    }
  });
  return img;
}

t.test('the journal from a log gives every plan the model\'s crash image', async (t) => {
  let failures = 0;
  let images = 0;
  let pendingSeen = 0;
  for (const seed of SEEDS) {
    const rng = createRng(seed);
    const fresh = rng.next() < 0.3;
    const base = fresh ? Buffer.alloc(SIZE) : bytes(rng, SIZE);
    const basePath = join(dir, `base-${seed}.img`);
    if (!fresh) writeFileSync(basePath, base);
    const p = program(rng, base);
    const logPath = join(dir, `log-${seed}.img`);
    writeFileSync(logPath, encodeWriteLog(p.entries));
    // the device at the cut holds what it took, pending writes too (in some order of its own:
    // settleImage puts the log's order there)
    const atCut = Buffer.from(p.durable);
    for (const w of [...p.pending].reverse()) w.data.copy(atCut, w.offset);
    const imagePath = join(dir, `image-${seed}.img`);
    writeFileSync(imagePath, atCut);
    const log = indexWriteLog(logPath);
    const cut = cutOfLog(log, 4096, PAGE);
    const journal = parseJournal(encodeJournal(journalOfLog(log, cut, fresh ? null : basePath)));
    settleImage(imagePath, journal);
    pendingSeen += journal.length;
    if (journal.length !== p.pending.length) {
      failures++;
      t.fail(`seed ${seed}: ${journal.length} journaled, ${p.pending.length} pending`);
      continue;
    }
    // each write's old bytes are what the device held just before it: earlier pending writes too
    const before = Buffer.from(p.durable);
    const wrongOld = journal.findIndex((e, i) => {
      const ok = e.old.equals(before.subarray(e.offset, e.offset + e.length)) && e.new.equals(p.pending[i]!.data);
      e.new.copy(before, e.offset);
      return !ok;
    });
    if (wrongOld >= 0) {
      failures++;
      t.fail(`seed ${seed}: pending write ${wrongOld}'s old or new bytes are not the device's`);
    }
    for (let k = 0; k < 3; k++) {
      const unit = ATOMIC_UNITS[rng.int(ATOMIC_UNITS.length)]!;
      const plan = makePlan(journal, seed * 10 + k, unit);
      const out = join(dir, `crash-${seed}-${k}.img`);
      await materializeCrashImage(imagePath, journal, plan, out);
      images++;
      if (!readFileSync(out).equals(expected(p.durable, p.pending, plan))) {
        failures++;
        t.fail(`seed ${seed}, plan ${k} (atomic ${unit}): the crash image differs from the model`);
      }
      rmSync(out);
    }
    rmSync(logPath);
    rmSync(imagePath);
    rmSync(basePath, { force: true });
  }
  t.equal(failures, 0, `${images} crash images from ${SEEDS.length} seeded logs match the model byte for byte`);
  t.ok(pendingSeen > SEEDS.length * 5, `the logs held pending writes to judge (${pendingSeen})`);
});

t.test('the counters come from the log after the arm mark', async (t) => {
  const page = (offset: number): EncodableEntry => ({ kind: 'write', offset, data: Buffer.alloc(PAGE, 1) });
  const path = join(dir, 'counters.img');
  writeFileSync(path, encodeWriteLog([
    page(0), { kind: 'flush' }, // before arming: not counted
    { kind: 'mark', text: ARM_MARK },
    page(PAGE), page(2 * PAGE + 4096), { kind: 'write', offset: 0, data: Buffer.alloc(512, 2) },
    { kind: 'discard', offset: 0, length: 8192 }, { kind: 'flush' },
    { kind: 'mark', text: CUT_MARK },
    page(3 * PAGE + 8192), { kind: 'write', offset: 1024, data: Buffer.alloc(4096, 3) },
    { kind: 'mark', text: END_MARK },
  ]));
  const cut = cutOfLog(indexWriteLog(path), 16384, PAGE);
  t.same(cut.stats, {
    writes: 5, flushes: 1, bytesWritten: 3 * PAGE + 512 + 4096, pageWrites: 3, pageWritesMisaligned: 2,
    pageWritesStraddling: 2, writesBySize: { '512': 1, '4096': 1, '16384': 3 }, straddleOffsets: [2 * PAGE + 4096, 3 * PAGE + 8192],
  });
  t.equal(cut.pending.length, 2);
  t.equal(cut.pendingPageWrites, 1, 'writes of a page or more');
});

t.test('a log the journal cannot come from is refused with the reason', async (t) => {
  const cases: { name: string; entries: EncodableEntry[]; says: RegExp }[] = [
    { name: 'never cut', entries: [{ kind: 'flush' }, { kind: 'mark', text: END_MARK }], says: /has no cut mark: the disk was not cut$/ },
    { name: 'logging stopped', entries: [{ kind: 'mark', text: CUT_MARK }, { kind: 'write', offset: 0, data: Buffer.alloc(512) }], says: /does not end with the kernel's 'dm-log-writes-end' mark: the log device filled up or failed/ },
    { name: 'a flush after the cut', entries: [{ kind: 'mark', text: CUT_MARK }, { kind: 'flush' }, { kind: 'mark', text: END_MARK }], says: /entry 1 after the cut mark is a flush; only unflushed writes may follow it$/ },
  ];
  for (const c of cases) {
    const path = join(dir, `refused-${c.name.replace(/ /g, '-')}.img`);
    writeFileSync(path, encodeWriteLog(c.entries));
    t.throws(() => cutOfLog(indexWriteLog(path), 4096, PAGE), c.says, c.name);
  }
});

t.test('the log reader', async (t) => {
  const path = join(dir, 'reader.img');
  t.test('a discard has no data in the log and reads as zeros; the reader stops at an empty header', async (t) => {
    const log = encodeWriteLog([{ kind: 'discard', offset: 4096, length: 8192 }, { kind: 'write', offset: 512, data: Buffer.alloc(1024, 7) }]);
    writeFileSync(path, Buffer.concat([log, Buffer.alloc(4096)]));
    const read = indexWriteLog(path);
    t.same(read.entries.map((e) => e.kind === 'write' ? [e.offset, e.length, e.flags & DISCARD_FLAG ? 'discard' : 'data'] : e.kind), [[4096, 8192, 'discard'], [512, 1024, 'data']]);
    t.equal(read.superCount, 2);
  });
  t.test('not a log', async (t) => {
    writeFileSync(path, Buffer.alloc(4096));
    t.throws(() => indexWriteLog(path), /is not a dm-log-writes log \(no magic in its first sector\)$/);
  });
  t.test('a mark longer than its sector', async (t) => {
    const log = encodeWriteLog([{ kind: 'mark', text: 'x' }]);
    log.writeBigUInt64LE(600n, 512 + 24);
    writeFileSync(path, log);
    t.throws(() => indexWriteLog(path), /entry 0 is a mark of 600 bytes, more than its sector holds$/);
  });
});
