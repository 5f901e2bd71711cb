/**
 * The helper's recording (--record, faults/recording.ts) through the real stack (loop device over
 * the FUSE helper): replayed onto the start image it gives the image the disk ended with; flushes
 * come after every write they make durable; times are process.hrtime's; a cut or the bound ends it.
 */
import t, { type Test } from 'tap';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { diskEnvironmentFromEnv } from '../../faults/disk-environment.js';
import { FILESYSTEMS } from '../../faults/filesystems.js';
import type { PowerFailDisk } from '../../faults/power-fail-disk.js';
import { startDisk } from '../../faults/start-disk.js';
import { indexRecording, readRecordedData, RECORDING_FILE, type RecordedEvent, type RecordedWrite, type Recording } from '../../faults/recording.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const KiB = 1024;
const MiB = 1 << 20;
const HEADER = 32;
const pwrite = (fill: number, offset: number, length: number) => ['-c', `pwrite -q -b ${length} -S 0x${fill.toString(16)} ${offset} ${length}`];
const fsync = ['-c', 'fsync'];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

function scratch(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'rig-recording-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function recordedDisk(t: Test, dir: string, start: string, fs: 'none' | 'ext4', maxBytes = 256 * MiB): Promise<{ disk: PowerFailDisk; path: string }> {
  const path = join(dir, 'disk', RECORDING_FILE);
  const disk = await startDisk({
    dir: join(dir, 'disk'), sizeBytes: statSync(start).size, fs, atomicUnit: 4096, pageSize: 16 * KiB,
    journalMaxBytes: 64 * MiB, model: LOCAL.device, trigger: null, fromImage: start, record: { path, maxBytes },
  });
  t.teardown(() => disk.down());
  return { disk, path };
}

const writesOf = (events: RecordedEvent[]) => events.filter((e): e is RecordedWrite => e.kind === 'write');

/** The kinds in order, without flushes that made nothing new durable (the loop device flushes as it is attached and closed). */
function kinds(events: RecordedEvent[]): string[] {
  let boundary = 0;
  return events.filter((e) => {
    if (e.kind !== 'flush') return true;
    const fresh = e.boundary > boundary;
    boundary = e.boundary;
    return fresh;
  }).map((e) => e.kind);
}

/** The start image with every recorded write put on it in the recording's order. */
function replay(start: string, rec: Recording): Buffer {
  const image = readFileSync(start);
  const fd = openSync(rec.path, 'r');
  try {
    for (const w of writesOf(rec.events)) readRecordedData(fd, w).copy(image, w.offset);
  } finally {
    closeSync(fd);
  }
  return image;
}

/** Writes take seqs 0, 1, 2 ... in the recording's order; each flush follows exactly the writes below its boundary. */
function checkOrder(t: Test, events: RecordedEvent[]): void {
  const seqs = writesOf(events).map((w) => w.seq);
  t.same(seqs, seqs.map((_, i) => i), 'write seqs are 0, 1, 2 ... in the order recorded');
  let writesBefore = 0;
  let lastBoundary = 0;
  let flushes = 0;
  const bad: string[] = [];
  for (const e of events) {
    if (e.kind === 'write') writesBefore++;
    if (e.kind !== 'flush') continue;
    flushes++;
    if (e.boundary < lastBoundary) bad.push(`flush ${e.number}: boundary ${e.boundary} after ${lastBoundary}`);
    if (e.boundary !== writesBefore) bad.push(`flush ${e.number}: boundary ${e.boundary}, but ${writesBefore} writes recorded before it`);
    if (e.number !== flushes) bad.push(`flush ${e.number} is the ${flushes}th recorded`);
    lastBoundary = e.boundary;
  }
  t.same(bad, [], `${flushes} flushes: boundaries non-decreasing, each after every write below it`);
  const times = events.map((e) => e.tUs);
  t.ok(times.every((x, i) => i === 0 || x >= times[i - 1]!), 'times do not go backwards');
}

t.test('a raw disk: the recording replays onto the start image to the image the disk ended with', async (t) => {
  const dir = scratch(t);
  const start = join(dir, 'start.img');
  writeFileSync(start, randomBytes(16 * MiB));
  const beforeStart = nowUs();
  const { disk, path } = await recordedDisk(t, dir, start, 'none');
  const program = [
    ...pwrite(0xa1, 0, 512), ...pwrite(0xa2, 4 * KiB, 4 * KiB), ...fsync,
    ...pwrite(0xa3, 0, 16 * KiB), ...pwrite(0xa4, 8 * KiB, 64 * KiB), ...fsync, // over the first two
    ...pwrite(0xa5, 3 * MiB + 512, 1 * MiB), ...pwrite(0xa6, 3 * MiB, 4 * KiB), ...fsync,
    ...pwrite(0xa7, 16 * MiB - 64 * KiB, 64 * KiB), ...pwrite(0xa8, 12 * KiB, 512), // the last, no flush of its own
  ];
  const beforeWrites = nowUs();
  await execa('xfs_io', ['-d', ...program, disk.target]);
  const afterWrites = nowUs();
  const report = await disk.down();
  const afterDown = nowUs();
  t.same(report.problems, [], 'the disk came down cleanly');

  const rec = indexRecording(path);
  t.equal(rec.ended, 'open', 'no cut and no bound reached: no closing event');
  t.equal(rec.bytes, statSync(path).size);
  const writes = writesOf(rec.events);
  t.ok(writes.length >= 8, `${writes.length} writes recorded for 8 pwrites`);
  t.equal(writes.reduce((n, w) => n + w.length, 0), 512 + 4 * KiB + 16 * KiB + 64 * KiB + MiB + 4 * KiB + 64 * KiB + 512, 'every byte written is recorded once');
  t.ok(rec.events.filter((e) => e.kind === 'flush').length >= 3, 'the three fsyncs are recorded');
  t.equal(sha256(replay(start, rec)), sha256(readFileSync(join(dir, 'disk', 'image.img'))), 'replayed, the recording gives the image the disk ended with');
  t.not(sha256(readFileSync(start)), sha256(readFileSync(join(dir, 'disk', 'image.img'))), 'and the writes changed it');
  checkOrder(t, rec.events);
  const early = writes.filter((w) => w.tUs < beforeWrites || w.tUs > afterWrites);
  t.same(early.map((w) => w.seq), [], `every write's time lies between the readings around the writes (${beforeWrites}..${afterWrites} us)`);
  t.ok(rec.events.every((e) => e.tUs >= beforeStart && e.tUs <= afterDown), 'every event lies between the disk\'s start and its end on the same clock');
});

t.test('ext4: mount, files, fsyncs and unmount replay to the final image', async (t) => {
  const dir = scratch(t);
  const start = join(dir, 'start.img');
  closeSync(openSync(start, 'w'));
  truncateSync(start, FILESYSTEMS.ext4.minBytes);
  await execa('mkfs.ext4', [...FILESYSTEMS.ext4.args, start]);
  const { disk, path } = await recordedDisk(t, dir, start, 'ext4');
  const mnt = disk.record.mountPoint!;
  await execa('dd', ['if=/dev/urandom', `of=${join(mnt, 'a')}`, 'bs=64k', 'count=20', 'conv=fsync', 'status=none']);
  await execa('dd', ['if=/dev/urandom', `of=${join(mnt, 'a')}`, 'bs=4k', 'count=7', 'seek=3', 'conv=notrunc,fsync', 'status=none']);
  await execa('dd', ['if=/dev/urandom', `of=${join(mnt, 'b')}`, 'bs=1M', 'count=2', 'oflag=direct', 'conv=fsync', 'status=none']);
  await execa('sync', ['-f', mnt]);
  t.same((await disk.down()).problems, []);
  const rec = indexRecording(path);
  t.ok(writesOf(rec.events).length > 10, `${writesOf(rec.events).length} writes recorded`);
  t.equal(sha256(replay(start, rec)), sha256(readFileSync(join(dir, 'disk', 'image.img'))), 'replayed, the recording gives the image the disk ended with');
  checkOrder(t, rec.events);
});

t.test('a cut ends the recording, written out before the helper exits; later I/O records nothing', async (t) => {
  const dir = scratch(t);
  const start = join(dir, 'start.img');
  writeFileSync(start, randomBytes(4 * MiB));
  const { disk, path } = await recordedDisk(t, dir, start, 'none');
  await execa('xfs_io', ['-d', ...pwrite(0xb1, 0, 16 * KiB), ...fsync, ...pwrite(0xb2, 64 * KiB, 16 * KiB), disk.target]);
  await disk.cut();
  const atCut = indexRecording(path);
  t.equal(atCut.ended, 'cut', 'complete once the cut answers, the helper still running');
  const last = atCut.events.at(-1)!;
  t.same(last.kind === 'cut' && last.next, writesOf(atCut.events).length, 'the cut names the next seq');
  t.same(kinds(atCut.events), ['write', 'flush', 'write', 'cut']);
  const held = execa('xfs_io', ['-d', ...pwrite(0xb3, MiB, 4 * KiB), ...fsync, disk.target], { reject: false });
  await new Promise((r) => setTimeout(r, 300)); // let it reach the disk and be held
  await disk.down();
  await held;
  t.equal(statSync(path).size, atCut.bytes, 'nothing recorded after the cut');
  t.same(indexRecording(path).events, atCut.events);
});

t.test('at its bound the recording ends with a truncated event and is no larger', async (t) => {
  const dir = scratch(t);
  const start = join(dir, 'start.img');
  writeFileSync(start, randomBytes(4 * MiB));
  const maxBytes = 50_000; // room for three 16 KiB writes and their flushes, not four
  const { disk, path } = await recordedDisk(t, dir, start, 'none', maxBytes);
  const program = [0, 1, 2, 3, 4, 5].flatMap((i) => [...pwrite(0xc0 + i, i * 16 * KiB, 16 * KiB), ...fsync]);
  await execa('xfs_io', ['-d', ...program, disk.target]);
  const atBound = indexRecording(path);
  t.equal(atBound.ended, 'truncated');
  t.ok(atBound.bytes <= maxBytes, `${atBound.bytes} bytes, bound ${maxBytes}`);
  t.ok(atBound.bytes + HEADER + 16 * KiB > maxBytes, 'another write would not have fitted');
  t.same(kinds(atBound.events), ['write', 'flush', 'write', 'flush', 'write', 'flush', 'truncated']);
  const last = atBound.events.at(-1)!;
  t.equal(last.kind === 'truncated' && last.next, 3, 'it names the first write not recorded');
  checkOrder(t, atBound.events);
  await execa('xfs_io', ['-d', ...pwrite(0xd0, MiB, 4 * KiB), ...fsync, disk.target]);
  await disk.down();
  t.equal(statSync(path).size, atBound.bytes, 'nothing recorded after it, to the helper\'s exit');
});

t.test('the helper refuses --record without --record-max, and a bound too small for anything', async (t) => {
  const dir = scratch(t);
  const helper = diskEnvironmentFromEnv().helperPath;
  const image = join(dir, 'image.img');
  writeFileSync(image, Buffer.alloc(MiB));
  const base = [`--image=${image}`, `--control=${join(dir, 'c.sock')}`, `--journal=${join(dir, 'j.bin')}`, '--unit=4096', '--page-size=16384', '--journal-max=1048576', '--cache=volatile'];
  for (const [name, extra] of [['no --record-max', [`--record=${join(dir, 'r.pfr')}`]], ['a bound of 40 bytes', [`--record=${join(dir, 'r.pfr')}`, '--record-max=40']], ['--record-max alone', ['--record-max=100000']]] as const) {
    const r = await execa(helper, [...base, ...extra, dir], { reject: false, timeout: 10_000 });
    t.equal(r.exitCode, 2, `${name}: usage error`);
    t.match(r.stderr, /--record=FILE needs --record-max=BYTES \(at least 68\)/, `${name}: says why`);
  }
  await t.rejects(startDisk({
    dir: join(dir, 'disk'), sizeBytes: MiB, fs: 'none', atomicUnit: 4096, pageSize: 16 * KiB, journalMaxBytes: MiB, model: LOCAL.device,
    trigger: null, record: { path: join(dir, 'r.pfr'), maxBytes: 10 },
  }), /helper did not come up: pfdisk: --record=FILE needs --record-max/, 'startDisk passes the bound on and reports the refusal');
});

t.test('a recording that runs out of space stops, says so, and the disk goes on', async (t) => {
  const dir = scratch(t);
  const small = join(dir, 'small');
  mkdirSync(small);
  await execa('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]);
  t.teardown(() => execa('umount', ['-l', small], { reject: false }));
  const start = join(dir, 'start.img');
  writeFileSync(start, randomBytes(16 * MiB));
  const path = join(small, RECORDING_FILE);
  const disk = await startDisk({
    dir: join(dir, 'disk'), sizeBytes: 16 * MiB, fs: 'none', atomicUnit: 4096, pageSize: 16 * KiB,
    journalMaxBytes: 64 * MiB, model: LOCAL.device, trigger: null, fromImage: start, record: { path, maxBytes: 256 * MiB },
  });
  t.teardown(() => disk.down());
  const program = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [...pwrite(0xe0 + i, i * MiB, MiB), ...fsync]);
  const writer = await execa('xfs_io', ['-d', ...program, disk.target], { reject: false });
  t.equal(writer.exitCode, 0, 'every write and flush succeeded');
  t.same((await disk.down()).problems, []);
  const log = readFileSync(join(dir, 'disk', 'helper.log'), 'utf8');
  t.match(log, new RegExp(`pfdisk: recording to ${path} stopped: No space left on device`), 'helper.log says why');
  const rec = indexRecording(path);
  t.equal(rec.ended, 'open', 'no closing event: the file simply ends');
  t.ok(rec.bytes <= 64 * KiB, `${rec.bytes} bytes on a 64 KiB tmpfs`);
  checkOrder(t, rec.events);
  const image = readFileSync(join(dir, 'disk', 'image.img'));
  const wrong = [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => !image.subarray(i * MiB, (i + 1) * MiB).equals(Buffer.alloc(MiB, 0xe0 + i)));
  t.same(wrong, [], 'the image holds every write');
});
