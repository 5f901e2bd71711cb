import t from 'tap';
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { cpioArchive } from '../../rig/vm/cpio-archive.js';

/** Each record's name and mode, read back by the newc layout (the reader the kernel has). */
function readNames(archive: Buffer): Array<{ name: string; mode: number; data: string }> {
  const out = [];
  let at = 0;
  for (;;) {
    t.equal(archive.toString('latin1', at, at + 6), '070701', `magic at ${at}`);
    const field = (i: number) => parseInt(archive.toString('latin1', at + 6 + i * 8, at + 14 + i * 8), 16);
    const size = field(6);
    const nameSize = field(11);
    const name = archive.toString('latin1', at + 110, at + 110 + nameSize - 1);
    const dataAt = at + Math.ceil((110 + nameSize) / 4) * 4;
    out.push({ name, mode: field(1), data: archive.toString('latin1', dataAt, dataAt + size) });
    at = dataAt + Math.ceil(size / 4) * 4;
    if (name === 'TRAILER!!!') break;
  }
  t.equal(at, archive.length, 'nothing after the trailer');
  return out;
}

const archive = cpioArchive([
  { kind: 'dir', path: 'proc' },
  { kind: 'file', path: '/bin/busybox', data: Buffer.from('elf!'), executable: true },
  { kind: 'symlink', path: 'bin/sh', target: 'busybox' },
  { kind: 'file', path: 'lib/modules/dm_mod.ko', data: Buffer.from('abcde') },
]);

t.test('parents first, modes, data and the trailer, each record 4-byte aligned', async (t) => {
  t.same(readNames(archive), [
    { name: 'proc', mode: 0o040755, data: '' },
    { name: 'bin', mode: 0o040755, data: '' },
    { name: 'bin/busybox', mode: 0o100755, data: 'elf!' },
    { name: 'bin/sh', mode: 0o120777, data: 'busybox' },
    { name: 'lib', mode: 0o040755, data: '' },
    { name: 'lib/modules', mode: 0o040755, data: '' },
    { name: 'lib/modules/dm_mod.ko', mode: 0o100644, data: 'abcde' },
    { name: 'TRAILER!!!', mode: 0, data: '' },
  ]);
});

t.test('the same entries give the same bytes', async (t) => {
  t.ok(cpioArchive([{ kind: 'dir', path: 'a' }]).equals(cpioArchive([{ kind: 'dir', path: 'a' }])));
});

t.test('a path twice is refused', async (t) => {
  t.throws(() => cpioArchive([{ kind: 'dir', path: 'a' }, { kind: 'symlink', path: 'a', target: 'b' }]), /a is in the archive twice/);
});

t.test("busybox's cpio lists what the archive holds", { skip: existsSync('/bin/busybox') ? false : 'no /bin/busybox' }, async (t) => {
  const listed = await execa('/bin/busybox', ['cpio', '-t'], { input: archive });
  t.same(listed.stdout.split('\n'), ['proc', 'bin', 'bin/busybox', 'bin/sh', 'lib', 'lib/modules', 'lib/modules/dm_mod.ko']);
});
