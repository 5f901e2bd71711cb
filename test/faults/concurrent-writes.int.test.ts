/**
 * The journal under concurrent writes (fio, 16 KiB random writes at queue depth 16, through the
 * real loop device): rolling every pending write back must give exactly the device as it stood at
 * the last flush, and landing every one must give the device as it stood at the cut, with many
 * pending writes overlapping earlier ones. A cut among writes under way is answered (to `cut` and
 * to a `wait-cut` already waiting) only once those writes are journaled and the journal written.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { makePlan } from '../../faults/crash-plan.js';
import { loadJournal } from '../../faults/journal.js';
import { materializeCrashImage } from '../../faults/materialize.js';
import { startDisk } from '../../faults/start-disk.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const REGION = 4 << 20;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function readRegion(device: string): Promise<Buffer> {
  const { stdout } = await execa('dd', [`if=${device}`, 'bs=1M', `count=${REGION >> 20}`, 'iflag=direct', 'status=none'], { encoding: 'buffer' });
  return Buffer.from(stdout);
}

function fio(device: string, seed: number): string[] {
  return [
    '--name=w', `--filename=${device}`, '--rw=randwrite', '--bs=16k', '--iodepth=16', '--ioengine=libaio',
    '--direct=1', `--size=${REGION}`, `--io_size=${2 * REGION}`, `--randseed=${seed}`, '--norandommap',
    '--refill_buffers', '--output=/dev/null', // fresh random bytes in every write
  ];
}

t.test('concurrent writes roll back and land exactly', async (t) => {
  if ((await execa('sh', ['-c', 'command -v fio'], { reject: false })).exitCode !== 0) {
    t.plan(0, 'fio is not installed (make test installs it)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'rig-concurrent-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = await startDisk({ dir, sizeBytes: 16 << 20, fs: 'none', atomicUnit: 4096, pageSize: 16384, journalMaxBytes: 256 << 20, model: LOCAL.device, trigger: { kind: 'manual' } });
  t.teardown(() => disk.down());
  await execa('fio', fio(disk.target, 1));
  await execa('xfs_io', ['-c', 'fsync', disk.target]); // the flush: round 1 is durable
  const flushed = await disk.status();
  t.equal(flushed.pending, 0, 'the flush emptied the journal');
  const atFlush = sha(await readRegion(disk.target));
  await execa('fio', fio(disk.target, 2));
  const atCut = sha(await readRegion(disk.target));
  t.not(atCut, atFlush, 'the unflushed writes changed the device');
  const status = await disk.cut();
  t.ok(status.cutPending >= 256, `hundreds of writes were pending at the cut (${status.cutPending})`);
  await disk.down();
  const journal = loadJournal(join(dir, 'journal.bin'));
  const overlapping = journal.filter((e, i) => journal.slice(0, i).some((p) => p.offset < e.offset + e.length && e.offset < p.offset + p.length)).length;
  t.ok(overlapping > 0, `some pending writes overlap earlier ones (${overlapping})`);
  for (const [name, policy, want] of [
    ['every pending write dropped', { land: 0, drop: 1, tear: 0 }, atFlush],
    ['every pending write landed', { land: 1, drop: 0, tear: 0 }, atCut],
  ] as const) {
    const out = join(dir, `${policy.land}.img`);
    await materializeCrashImage(join(dir, 'image.img'), journal, makePlan(journal, 7, 4096, policy), out);
    t.equal(sha(readFileSync(out).subarray(0, REGION)), want, `${name}: the device as it stood ${policy.land ? 'at the cut' : 'at the last flush'}`);
  }
});

t.test('a cut among writes under way: both replies count exactly what the journal holds', async (t) => {
  if ((await execa('sh', ['-c', 'command -v fio'], { reject: false })).exitCode !== 0) {
    t.plan(0, 'fio is not installed (make test installs it)');
    return;
  }
  for (let round = 1; round <= 5; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'rig-concurrent-cut-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const disk = await startDisk({ dir, sizeBytes: 16 << 20, fs: 'none', atomicUnit: 4096, pageSize: 16384, journalMaxBytes: 256 << 20, model: LOCAL.device, trigger: { kind: 'manual' } });
    t.teardown(() => disk.down());
    const writing = execa('fio', [...fio(disk.target, round), '--io_size=64M'], { reject: false });
    const waiting = disk.waitCut(30_000);
    while ((await disk.status()).pending < 64) await new Promise((r) => setTimeout(r, 5));
    const cut = await disk.cut();
    const waited = await waiting;
    await disk.release();
    await writing;
    await disk.down();
    const held = loadJournal(join(dir, 'journal.bin')).length;
    t.same([cut.cutPending, waited?.cutPending], [held, held], `round ${round}: ${held} writes in the journal`);
  }
});

