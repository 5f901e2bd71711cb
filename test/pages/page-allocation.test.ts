import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPageFree, pageFreeIn } from '../../rig/pages/page-allocation.js';
import { readU32 } from '../../rig/pages/page-format.js';
import { loadPage } from '../fixtures/pages/fixture-pages.js';
import { makeTempDir } from '../fixtures/pages/synthetic-datadir.js';

for (const ps of [4096, 16384, 65536] as const) {
  t.test(`a real ${ps}-byte page 0 says which pages are in use`, async (t) => {
    const page0 = loadPage(`full_crc32-${ps}-p0`);
    const freeLimit = readU32(page0, 38 + 12);
    t.ok(freeLimit > 3, `free limit ${freeLimit} lies past the first pages`);
    for (const used of [0, 1, 2, 3]) t.notOk(pageFreeIn(page0, used, ps, true), `page ${used} (header, bitmap, inode, root) is in use`);
    t.ok(pageFreeIn(page0, freeLimit, ps, true), 'the page at the free limit was never initialised');
    t.ok(pageFreeIn(page0, freeLimit + 5, ps, true), 'pages past the free limit are free');
  });
}

t.test('the free bit of a fragment extent decides', async (t) => {
  const ps = 16384;
  const page = Buffer.alloc(ps);
  page.writeUInt32BE(1000, 38 + 12); // free limit far away
  const entry = 38 + 112; // first extent: pages 0..63
  page.writeUInt32BE(2, entry + 20); // XDES_FREE_FRAG
  page[entry + 24 + 1] = 0b0000_0100; // page 5: bit 10 -> byte 1, bit 2 = free
  t.ok(pageFreeIn(page, 5, ps, true), 'page 5 is marked free');
  t.notOk(pageFreeIn(page, 4, ps, true), 'page 4 is not');
  page.writeUInt32BE(1, entry + 20); // XDES_FREE: the whole extent
  t.ok(pageFreeIn(page, 4, ps, true), 'a free extent frees every page in it');
});

t.test('isPageFree trusts only a verified descriptor page', async (t) => {
  const dir = makeTempDir(t, 'rig-free-');
  const ps = 16384;
  const page0 = loadPage('full_crc32-16384-p0');
  const freeLimit = readU32(page0, 38 + 12);
  const path = join(dir, 't.ibd');
  writeFileSync(path, Buffer.concat([page0, Buffer.alloc(ps * 3)]));
  t.equal(isPageFree(path, freeLimit + 1, ps), true, 'a verified page 0 frees the pages past its free limit');
  t.equal(isPageFree(path, 2, ps), false, 'and keeps page 2 in use');
  const torn = Buffer.from(page0);
  torn.fill(0xab, 8192, 12288); // one 4 KiB unit of another version
  writeFileSync(path, Buffer.concat([torn, Buffer.alloc(ps * 3)]));
  t.equal(isPageFree(path, freeLimit + 1, ps), null, 'a torn descriptor page frees nothing');
  writeFileSync(path, Buffer.alloc(ps * 4));
  t.equal(isPageFree(path, 1, ps), null, 'an all-zero page 0 says nothing');
  t.equal(isPageFree(join(dir, 'missing.ibd'), 1, ps), null, 'a missing file says nothing');
});
