/**
 * Runs inside the guest (`make test-dm`, through `rig vm run`): the kernel path's parts are real
 * there. A dm-flakey device over a loop device drops writes when told to and passes them when
 * not, which is what the dm backend will build a power cut from.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

const SECTORS = 8192; // 4 MiB
const dir = mkdtempSync(join(tmpdir(), 'rig-dm-'));
const name = `rig-flakey-${process.pid}`;
let loop: string | null = null;
t.teardown(async () => {
  await execa('dmsetup', ['remove', name], { reject: false });
  if (loop) await execa('losetup', ['-d', loop], { reject: false });
  rmSync(dir, { recursive: true, force: true });
});

const table = (features: string) => `0 ${SECTORS} flakey ${loop} 0 0 3600 ${features}`;

async function writeBlock(byte: number): Promise<void> {
  const data = Buffer.alloc(4096, byte);
  await execa('dd', [`of=/dev/mapper/${name}`, 'bs=4096', 'count=1', 'oflag=direct', 'status=none'], { input: data });
}

async function readBlock(): Promise<number> {
  const out = await execa('dd', [`if=/dev/mapper/${name}`, 'bs=4096', 'count=1', 'iflag=direct', 'status=none'], { encoding: 'buffer' });
  return Buffer.from(out.stdout)[0]!;
}

t.test('flakey and log-writes are among the targets', async (t) => {
  const targets = (await execa('dmsetup', ['targets'])).stdout.split('\n').map((l) => l.split(/\s+/)[0]);
  t.ok(targets.includes('flakey'));
  t.ok(targets.includes('log-writes'));
});

t.test('drop_writes loses a write; the same device without it keeps one', async (t) => {
  // the image is on the guest's tmpfs, which takes no O_DIRECT: the loop device does buffered I/O
  await execa('truncate', ['-s', `${SECTORS * 512}`, join(dir, 'disk.img')]);
  loop = (await execa('losetup', ['--find', '--show', join(dir, 'disk.img')])).stdout.trim();
  await execa('dmsetup', ['create', name, '--table', table('1 drop_writes')]);
  await execa('dmsetup', ['mknodes', name]);
  await writeBlock(0xab);
  t.equal(await readBlock(), 0, 'dropped');
  await execa('dmsetup', ['suspend', name]);
  await execa('dmsetup', ['load', name, '--table', `0 ${SECTORS} linear ${loop} 0`]);
  await execa('dmsetup', ['resume', name]);
  await writeBlock(0xcd);
  t.equal(await readBlock(), 0xcd, 'kept');
});
