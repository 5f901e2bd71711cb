import t from 'tap';
import { execa } from 'execa';
import { uncompressedKernel, xzStreamOffset } from '../../rig/vm/vmlinux.js';

t.test('the XZ stream inside a bzImage, decompressed; what follows it is ignored', async (t) => {
  const kernel = Buffer.from('ELF kernel bytes '.repeat(100));
  const xz = Buffer.from((await execa('xz', ['-c'], { input: kernel, encoding: 'buffer' })).stdout);
  const bzImage = Buffer.concat([Buffer.from('MZ setup code...'), xz, Buffer.from('trailing size words')]);
  t.equal(xzStreamOffset(bzImage), 16);
  t.ok((await uncompressedKernel(bzImage))?.equals(kernel));
});

t.test('no XZ stream: null, and the caller boots the bzImage as it is', async (t) => {
  t.equal(await uncompressedKernel(Buffer.from('MZ gzip kernel')), null);
});
