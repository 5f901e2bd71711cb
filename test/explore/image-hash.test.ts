/**
 * An explore state's crash-image digest: the sha256 of its 4 MiB blocks' sha256s. Seeded images,
 * written forward as a lane's clean image is, digested with pieces laid over them while the
 * blocks' digests are carried from one state to the next, give the digest of the image actually
 * built, state after state; a carried digest the caller failed to forget is used as it stands (so
 * the carrying is what saves the work); one worker answers a lane's requests one after another, a
 * failed one included; and the shell command the bundle README gives computes the same.
 */
import t from 'tap';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { createRng, type Rng } from '../../faults/prng.js';
import { blocksSha256File, blocksSha256WithOverlay, DigestWorker, forgetBlocks, type BlockDigests, type Overlay } from '../../rig/explore/image-hash.js';
import { blocksDigest } from '../fixtures/blocks-digest.js';
import { blocksDigestCommand, blocksDigestName, digestBlockOf, DIGEST_BLOCK, FIRST_DIGEST_BLOCK } from '../../rig/results/crash-image-digest.js';

const dir = mkdtempSync(join(tmpdir(), 'image-hash-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));


function built(path: string, pieces: Overlay[]): string {
  const image = readFileSync(path);
  for (const p of pieces) p.data.copy(image, p.offset);
  return blocksDigest(image);
}

/** A write somewhere in the image, sometimes across a block boundary. */
function randomWrite(rng: Rng, size: number): Overlay {
  const length = 1 + rng.int(rng.int(4) === 0 ? 2 * DIGEST_BLOCK : 64 * 1024);
  const offset = rng.int(3) === 0 ? Math.max(0, (1 + rng.int(Math.floor(size / DIGEST_BLOCK))) * DIGEST_BLOCK - rng.int(length)) : rng.int(size);
  const data = Buffer.alloc(Math.min(length, size - Math.min(offset, size - 1)));
  for (let i = 0; i < data.length; i += 512) data[i] = 1 + rng.int(255);
  return { offset: Math.min(offset, size - data.length), data };
}

t.test('state after state, with the blocks carried: the digest of the image each plan builds', async (t) => {
  const wrong: string[] = [];
  let states = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const rng = createRng(seed);
    const path = join(dir, `clean-${seed}.img`);
    const size = (1 + rng.int(5)) * DIGEST_BLOCK + (rng.int(2) ? rng.int(DIGEST_BLOCK) : 0); // not always whole blocks
    const fd = openSync(path, 'w+');
    ftruncateSync(fd, size);
    let known: BlockDigests | null = null;
    const worker = new DigestWorker(); // one per lane, as explore keeps it
    t.teardown(() => worker.close());
    for (let state = 0; state < 5; state++, states++) {
      const pieces = Array.from({ length: rng.int(5) }, () => randomWrite(rng, size)); // later pieces win where they overlap
      const result = await worker.digest(path, pieces, known);
      if (result.blocksSha256 !== built(path, pieces)) wrong.push(`seed ${seed} state ${state}`);
      known = result.clean;
      for (let i = rng.int(4); i > 0; i--) {
        const w = randomWrite(rng, size); // the clean image moves to the next barrier
        writeSync(fd, w.data, 0, w.data.length, w.offset);
        forgetBlocks(known, w.offset, w.data.length);
      }
    }
    closeSync(fd);
  }
  t.same(wrong, [], `each of ${states} digests is that of the image its pieces build`);
});

t.test('a carried block digest is used as it stands; a block written and forgotten is read again', async (t) => {
  const path = join(dir, 'stale.img');
  const fd = openSync(path, 'w+');
  ftruncateSync(fd, 3 * DIGEST_BLOCK);
  const first = await blocksSha256WithOverlay(path, []);
  t.equal(first.clean.filter(Boolean).length, 3, 'every block of the file gets a digest');
  writeSync(fd, Buffer.from('written'), 0, 7, DIGEST_BLOCK + 10);
  closeSync(fd);
  const stale = await blocksSha256WithOverlay(path, [], first.clean);
  t.equal(stale.blocksSha256, first.blocksSha256, 'not forgotten: the write is not seen, so nothing was read');
  const kept = [...first.clean];
  forgetBlocks(kept, DIGEST_BLOCK + 10, 7);
  t.same(kept.map((k) => k !== null), [true, false, true], 'forgetBlocks drops the block the write touched');
  const fresh = await blocksSha256WithOverlay(path, [], kept);
  t.equal(fresh.blocksSha256, built(path, []), 'forgotten: the block is read again');
  const over = await blocksSha256WithOverlay(path, [{ offset: 2 * DIGEST_BLOCK - 1, data: Buffer.from([7, 7]) }], fresh.clean);
  t.equal(over.blocksSha256, built(path, [{ offset: 2 * DIGEST_BLOCK - 1, data: Buffer.from([7, 7]) }]), 'a piece across a boundary changes both blocks');
  t.same(over.clean, fresh.clean, 'and leaves the digests of the file itself as they were');
});

t.test('blocks of zeros, a whole one and the shorter last, and one that is zero but for its last byte', async (t) => {
  const path = join(dir, 'zeros.img');
  const fd = openSync(path, 'w+');
  ftruncateSync(fd, 2 * DIGEST_BLOCK + 100); // a hole, all but one byte
  writeSync(fd, Buffer.from([1]), 0, 1, 2 * DIGEST_BLOCK - 1);
  closeSync(fd);
  t.equal(await blocksSha256File(path), built(path, []), 'as the definition hashes them');
  const piece = { offset: 2 * DIGEST_BLOCK - 1, data: Buffer.from([0]) }; // the byte zeroed again
  t.equal((await blocksSha256WithOverlay(path, [piece])).blocksSha256, built(path, [piece]), 'and a block a piece makes all zeros');
});

t.test('one worker answers request after request, a failed one included, until closed', async (t) => {
  const path = join(dir, 'kept.img');
  const fd = openSync(path, 'w+');
  ftruncateSync(fd, DIGEST_BLOCK + 100);
  writeSync(fd, Buffer.from('kept'), 0, 4, 4096);
  closeSync(fd);
  const worker = new DigestWorker();
  t.teardown(() => worker.close());
  const [a, b] = await Promise.all([worker.digest(path, []), worker.digest(path, [{ offset: 0, data: Buffer.from('over') }])]);
  t.equal(a.blocksSha256, built(path, []), 'the first of two sent at once');
  t.equal(b.blocksSha256, built(path, [{ offset: 0, data: Buffer.from('over') }]), 'the second, with its own pieces');
  await t.rejects(worker.digest(join(dir, 'missing.img'), []), /hashing failed: ENOENT/, 'a file that is not there fails its request');
  t.equal((await worker.digest(path, [])).blocksSha256, a.blocksSha256, 'and the worker answers the next');
  await worker.close();
  t.equal((await worker.digest(path, [])).blocksSha256, a.blocksSha256, 'a request after close starts another worker');
});

t.test('forgetBlocks: every block a range touches, none past the end', async (t) => {
  const known: BlockDigests = Array.from({ length: 4 }, () => new Uint8Array(32));
  forgetBlocks(known, DIGEST_BLOCK - 1, 2);
  forgetBlocks(known, 3 * DIGEST_BLOCK, 10 * DIGEST_BLOCK);
  forgetBlocks(known, 2 * DIGEST_BLOCK, 0);
  t.same(known.map((k) => k !== null), [false, false, true, false]);
});

t.test('the shell command the bundle README gives computes the same digest, at either block size', async (t) => {
  for (const block of [DIGEST_BLOCK, FIRST_DIGEST_BLOCK]) {
    const path = join(dir, `shell-${block}.img`);
    const fd = openSync(path, 'w+');
    ftruncateSync(fd, 2 * block + 12345);
    writeSync(fd, Buffer.from('a page'), 0, 6, block + 4096);
    closeSync(fd);
    const { stdout } = await execa('sh', ['-c', blocksDigestCommand(path, block)]);
    t.equal(stdout.split(' ')[0], await blocksSha256File(path, block), `${block}-byte blocks`);
    t.not(await blocksSha256File(path, block), await blocksSha256File(path, block === DIGEST_BLOCK ? FIRST_DIGEST_BLOCK : DIGEST_BLOCK), 'the block size is part of the digest');
  }
});

t.test("a record's digest block: 256 KiB, or 4 MiB where the record names none (written before)", async (t) => {
  t.equal(DIGEST_BLOCK, 256 * 1024);
  t.equal(digestBlockOf({ crashImageDigestBlock: DIGEST_BLOCK }), DIGEST_BLOCK);
  t.equal(digestBlockOf({}), 4 * 1024 * 1024);
  t.equal(blocksDigestName(DIGEST_BLOCK), 'sha256 of its 256 KiB blocks');
  t.equal(blocksDigestName(digestBlockOf({})), 'sha256 of its 4 MiB blocks');
});
