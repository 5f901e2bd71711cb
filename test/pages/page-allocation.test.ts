import t from 'tap';
import { pageFreeIn } from '../../rig/pages/page-allocation.js';
import { readU32 } from '../../rig/pages/page-format.js';
import { loadPage } from '../fixtures/pages/fixture-pages.js';

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
