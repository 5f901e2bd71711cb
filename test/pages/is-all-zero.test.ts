/**
 * isAllZero on seeded buffers: any range, aligned or not, shorter or longer than a page, with one
 * byte set inside it, just outside it, or nowhere; the same answer as a byte-by-byte loop.
 */
import t from 'tap';
import { createRng } from '../../faults/prng.js';
import { isAllZero } from '../../rig/pages/page-format.js';

function byteByByte(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 0) return false;
  return true;
}

t.test('isAllZero agrees with a byte-by-byte loop on seeded ranges', async (t) => {
  const differ: string[] = [];
  let zero = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const rng = createRng(seed);
    const backing = new Uint8Array(200_000);
    const offset = rng.int(64); // a view that starts anywhere in its buffer
    const buf = backing.subarray(offset, offset + 150_000 + rng.int(40_000));
    const start = rng.int(1000);
    const end = rng.int(8) === 0 ? start : start + 1 + rng.int(buf.length - start - 1);
    const where = [start + rng.int(Math.max(1, end - start)), start - 1, end, end - 1, start][rng.int(5)]!;
    if (rng.int(4) > 0 && where >= 0 && where < buf.length) buf[where] = 1 + rng.int(255);
    const expected = byteByByte(buf, start, end);
    if (expected) zero++;
    if (isAllZero(buf, start, end) !== expected) differ.push(`seed ${seed}: [${start}, ${end}) of ${buf.length}, byte at ${where}`);
  }
  t.same(differ, [], 'every range judged as the loop judges it');
  t.ok(zero > 50 && zero < 350, `both answers seen (${zero} of 400 all zeros)`);
  t.equal(isAllZero(new Uint8Array(0)), true, 'an empty range is all zeros');
  t.equal(isAllZero(Uint8Array.from([0, 0, 7])), false, 'the whole buffer by default');
});
