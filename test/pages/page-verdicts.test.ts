/**
 * The page verdict memo gives exactly verifyPage's verdict: for pages seen before, changed in one
 * byte, at another page number, space id or format, alone or inside a scan's chunk. Seeded over
 * valid, zero and torn pages.
 */
import t from 'tap';
import { createRng } from '../../faults/prng.js';
import { fullCrc32Checksum } from '../../rig/pages/checksums.js';
import { PageVerdicts } from '../../rig/pages/page-verdicts.js';
import { verifyPage } from '../../rig/pages/verify-page.js';
import type { SpaceFormat } from '../../rig/pages/fsp-flags.js';

const FORMAT: SpaceFormat = { fullCrc32: true, pageSize: 16384, zipSize: 0 };
const LEGACY: SpaceFormat = { fullCrc32: false, pageSize: 16384, zipSize: 0 };

function validPage(pageNo: number, space: number, fill: number): Buffer {
  const p = Buffer.alloc(16384, fill);
  p.writeUInt32BE(0, 0);
  p.writeUInt32BE(pageNo, 4);
  p.writeUInt32BE(space, 34);
  p.writeUInt32BE(p.readUInt32BE(20), 16384 - 8); // the LSN's low word in the trailer
  p.writeUInt32BE(fullCrc32Checksum(p), 16384 - 4);
  return p;
}

t.test('remembered verdicts are verifyPage\'s, whatever changed', async (t) => {
  const memo = new PageVerdicts();
  const differ: string[] = [];
  const rng = createRng(42);
  const pool = Array.from({ length: 4 }, (_, pageNo) => validPage(pageNo, 7, 1 + pageNo));
  for (let round = 0; round < 400; round++) {
    const pageNo = rng.int(4);
    const space = 7;
    const page = rng.int(8) === 0 ? Buffer.alloc(16384) : Buffer.from(pool[pageNo]!);
    if (rng.int(4) === 0) page[rng.int(16384)]! ^= 1 + rng.int(255); // torn
    const ctx = { format: rng.int(8) === 0 ? LEGACY : FORMAT, pageNo: rng.int(8) === 0 ? pageNo + 1 : pageNo, spaceId: rng.int(8) === 0 ? space + 1 : space };
    // as a scan asks, the page inside its read chunk, or alone
    const slot = rng.int(3);
    const chunk = Buffer.alloc(3 * 16384, 0xa5);
    page.copy(chunk, slot * 16384);
    const got = rng.int(2) ? memo.verifyIn('./t.ibd', chunk, slot * 16384, 16384, ctx) : memo.verify('./t.ibd', page, ctx);
    if (JSON.stringify(got) !== JSON.stringify(verifyPage(page, ctx))) differ.push(`round ${round}`);
  }
  t.same(differ, [], 'every verdict as verifyPage gives it');
  t.ok(memo.hits > 50 && memo.misses > 50, `${memo.hits} remembered, ${memo.misses} computed`);
});

t.test('a page changed in place after it was remembered is verified again', async (t) => {
  const memo = new PageVerdicts();
  const page = validPage(3, 9, 1);
  const ctx = { format: FORMAT, pageNo: 3, spaceId: 9 };
  t.same(memo.verify('./t.ibd', page, ctx), { valid: true, zero: false });
  page[100]! ^= 0xff; // the caller's buffer reused for the next read: the memo kept its own copy
  const torn = memo.verify('./t.ibd', page, ctx);
  t.equal(torn.valid, false, 'the changed page is invalid');
  t.equal(memo.misses, 2);
  t.equal(memo.verify('./u.ibd', validPage(3, 9, 1), ctx).valid, true, 'another file is its own entry');
});
