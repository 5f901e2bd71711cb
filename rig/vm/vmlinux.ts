/**
 * The uncompressed kernel from a Debian vmlinuz: the XZ stream inside the bzImage, decompressed
 * with xz. qemu boots such an ELF vmlinux through its PVH entry, which saves the guest the
 * decompression, seconds under TCG. A vmlinuz with no XZ stream is booted as it is.
 */
import { execa } from 'execa';

const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);

/** Where the XZ stream starts in a bzImage, or -1. */
export function xzStreamOffset(bzImage: Buffer): number {
  return bzImage.indexOf(XZ_MAGIC);
}

/** The uncompressed ELF kernel, or null when `bzImage` holds no XZ stream. */
export async function uncompressedKernel(bzImage: Buffer, signal?: AbortSignal): Promise<Buffer | null> {
  const at = xzStreamOffset(bzImage);
  if (at < 0) return null;
  // --single-stream: the bzImage goes on after the stream; xz stops at its end
  const out = await execa('xz', ['-dc', '--single-stream'], {
    input: bzImage.subarray(at),
    encoding: 'buffer',
    maxBuffer: 1 << 30,
    cancelSignal: signal,
  });
  return Buffer.from(out.stdout);
}
