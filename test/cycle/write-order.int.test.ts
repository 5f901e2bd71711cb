/**
 * The write-order check (rig/cycle/write-order.ts) on whole crash cycles with the real mariadbd.
 *
 * Negative control: O_DIRECT at 16 KiB pages, doublewrite on, and O_DIRECT_NO_FSYNC: a completed
 * O_DIRECT page write is at the disk before the checkpoint that covers it is computed, and the
 * redo log's own flush makes it durable no later than the checkpoint. If server and rig are right
 * the check never fires. (O_DIRECT_NO_FSYNC skips the flush of the doublewrite copies before the
 * home writes, MDEV-33545: another order, which this check does not judge.)
 *
 * Positive control: no server setting makes this happen on demand. Measured here, neither
 * O_DIRECT_NO_FSYNC nor nosync ever left a covered page version pending at the cut; the one real
 * cause found (a page write that completes while its file is being flushed, with buffered I/O) shows
 * in a few checkpoints per hundred. So the control is one of the negative control's real crash
 * images with one covered page version delivered late, which the check must name.
 */
import t from 'tap';

type Tap = import('tap').Test;
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildCrashImage } from '../../faults/crash-image.js';
import { loadJournal, type JournalEntry } from '../../faults/journal.js';
import { startDisk } from '../../faults/start-disk.js';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { diskOptionsFor } from '../../rig/cycle/disk-options.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { DATADIR_NAME, datadirOn } from '../../rig/cycle/server-dirs.js';
import { checkCrashImageWriteOrder } from '../../rig/cycle/write-order.js';
import { buildExtentMap, mapRangeToPages, scanDatadir } from '../../rig/pages/index.js';
import { readLsn } from '../../rig/pages/page-format.js';
import { isPageFree } from '../../rig/pages/page-allocation.js';
import { readPageSync } from '../../rig/pages/read-page.js';
import type { CycleRecord, FlushMethod, ScenarioSettings } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { shippedProfile } from '../../faults/device-profile.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';

const LOCAL = shippedProfile('local');

const work = mkdtempSync(join(tmpdir(), 'rig-write-order-test-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();

const NEGATIVE_CYCLES = 2;
const NO_FSYNC_CYCLES = 1;

function scenario(name: string, flushMethod: FlushMethod, doublewrite: boolean, maxSeconds: number): ScenarioSettings {
  const server = { engine: 'innodb' as const, doublewrite, flushMethod, pageSize: 16384, bufferPool: '64M', redoSize: '96M' };
  const disk = { profile: LOCAL.name, model: LOCAL.device, atomicUnit: 4096, fs: 'ext4' as const, trigger: { kind: 'armed', pendingPageWrites: 16 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 };
  return {
    name,
    runtime: 'local',
    server,
    disk,
    load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds },
    expect: defaultExpectation(server, disk),
  };
}

async function cycle(t: Tap, settings: ScenarioSettings, seed: number): Promise<CycleRecord> {
  const { server, version } = await runtime.describe();
  const dir = join(work, `${settings.name}-${seed}`);
  const record = await runCycle({
    id: `${settings.name}-${seed}`, settings, cycle: seed, seed, expectation: settings.expect, dir,
    cacheRoot: PREPARED_CACHE, runtime, serverVersion: `${server} ${version}`, repro: `rig repro ${dir}`,
  });
  const w = record.writeOrder;
  t.comment(`${record.id}: ${record.verdict}; write order: checkpoint ${w?.checkpointLsn ?? '?'}, ${w?.pendingVersions ?? 0} pending versions, ${w?.violationCount ?? 0} violations`);
  t.ok(record.cut, `${record.id}: the cut came (${record.error ?? record.reason})`);
  t.ok(w && w.checkpointLsn !== null, `${record.id}: the durable checkpoint was read (${w?.why ?? ''})`);
  return record;
}

const negatives: Array<{ settings: ScenarioSettings; dir: string }> = [];

t.test('negative control: O_DIRECT at 16 KiB, doublewrite on, the check never fires', async (t) => {
  const s = scenario('wo-odirect', 'O_DIRECT', true, 120);
  for (let seed = 1; seed <= NEGATIVE_CYCLES; seed++) {
    const r = await cycle(t, s, seed);
    t.ok((r.writeOrder?.pendingVersions ?? 0) > 0, `${r.id}: page versions were pending at the cut, so the check had something to judge`);
    t.equal(r.writeOrder?.violationCount, 0, `${r.id}: no ordering violation (${JSON.stringify(r.writeOrder?.violations.slice(0, 2))})`);
    negatives.push({ settings: s, dir: join(work, r.id) });
  }
  const nofsync = scenario('wo-nofsync', 'O_DIRECT_NO_FSYNC', true, 120);
  for (let seed = 1; seed <= NO_FSYNC_CYCLES; seed++) {
    const r = await cycle(t, nofsync, seed);
    t.equal(r.writeOrder?.violationCount, 0, `${r.id}: no ordering violation at the device (${JSON.stringify(r.writeOrder?.violations.slice(0, 2))})`);
  }
});

/**
 * The same check on one of those real crash images, with one page write delivered late: a version
 * of a live page that the durable checkpoint already covers (its LSN between the page's durable
 * LSN and the checkpoint), pending at the cut. The check must name exactly that page.
 */
t.test('positive control on a real crash image: a covered page version delivered after the checkpoint', async (t) => {
  const source = negatives[0];
  if (!source) return t.fail('no negative-control cycle to take a crash image from');
  const cut = join(source.dir, 'cut');
  const out = join(work, 'late-write');
  const image = join(out, 'crash.img');
  mkdirSync(out, { recursive: true });
  await rebuildCrashImage(join(cut, 'image.img'), join(cut, 'journal.bin'), join(cut, 'plan.json'), image);
  const disk = await startDisk(diskOptionsFor(source.settings, join(out, 'disk'), { adoptImage: image }));
  t.teardown(() => disk.down());
  const datadir = datadirOn(disk.target);
  const journal = loadJournal(join(cut, 'journal.bin'));
  const [map, scan] = await Promise.all([buildExtentMap(disk.target, DATADIR_NAME), scanDatadir(datadir)]);
  const before = await checkCrashImageWriteOrder(datadir, journal, map, scan.doublewriteArea, null);
  t.equal(before.violationCount, 0, 'the real journal is in order');
  const checkpoint = before.checkpointLsn!;
  const touched = new Set(journal.flatMap((e) => mapRangeToPages(map, e.offset, e.length)).map((h) => `${h.file}#${h.page}`));
  let late: JournalEntry | null = null;
  let target = { file: '', page: -1, durable: 0, pending: 0 };
  // any table will do: one whose descriptor page tore cannot say a page is in use, so try the next
  for (const file of map.files.filter((f) => f.kind === 'table' && f.pageSize !== null)) {
    const ps = file.pageSize!;
    for (let page = 3; page * ps < file.size && !late; page++) {
      const durable = readPageSync(join(datadir, file.rel), page, ps);
      const lsn = durable ? readLsn(durable) : 0;
      if (!durable || touched.has(`${file.rel}#${page}`) || lsn === 0 || lsn >= checkpoint - 2) continue;
      // a page the descriptors say is in use: when its descriptor page tore, the check cannot tell (free: null)
      if (isPageFree(join(datadir, file.rel), page, ps) !== false) continue;
      const extent = file.extents.find((e) => e.logical <= page * ps && page * ps + ps <= e.logical + e.length);
      if (!extent) continue; // a page across two extents: the late write would be two requests
      const version = Buffer.from(durable);
      const pending = Math.floor((lsn + checkpoint) / 2);
      version.writeBigUInt64BE(BigInt(pending), 16);
      const seq = Math.max(0, ...journal.map((e) => e.seq)) + 1;
      late = { seq, offset: extent.physical + (page * ps - extent.logical), length: ps, old: durable, new: version };
      target = { file: file.rel, page, durable: lsn, pending };
    }
    if (late) break;
  }
  if (!late) return t.fail('no live page older than the checkpoint to deliver late, in any table');
  const after = await checkCrashImageWriteOrder(datadir, [...journal, late], map, scan.doublewriteArea, null);
  t.equal(after.checkpointLsn, checkpoint);
  t.equal(after.violationCount, 1, 'exactly the late page');
  t.match(after.violations[0], { file: target.file, page: target.page, durableLsn: target.durable, pendingLsn: target.pending, seq: late.seq, length: late.length, free: false });
});
