import t from 'tap';
import { crc32c } from '../../rig/pages/crc32c.js';
import { decodeFspFlags, readSpaceHeader } from '../../rig/pages/fsp-flags.js';
import { verifyPage, type PageContext } from '../../rig/pages/verify-page.js';
import { loadPage, stampPage, writeU32 } from '../fixtures/pages/fixture-pages.js';

const formatOf = (p0: Buffer) => readSpaceHeader(p0).format!;

t.test('FSP flags give format and page size', async (t) => {
  const cases: [number, ReturnType<typeof decodeFspFlags>][] = [
    [0x15, { fullCrc32: true, pageSize: 16384, zipSize: 0 }],
    [0x13, { fullCrc32: true, pageSize: 4096, zipSize: 0 }],
    [0x17, { fullCrc32: true, pageSize: 65536, zipSize: 0 }],
    [0x21, { fullCrc32: false, pageSize: 16384, zipSize: 0 }],
    [0xe1, { fullCrc32: false, pageSize: 4096, zipSize: 0 }],
    [0x1e1, { fullCrc32: false, pageSize: 65536, zipSize: 0 }],
    [0x29, { fullCrc32: false, pageSize: 16384, zipSize: 8192 }],
    [0, { fullCrc32: false, pageSize: 16384, zipSize: 0 }],
    [0x11, null], // full_crc32 marker with a page size below 4k
    [0x40, null], // legacy ssize 1 = 1k
    [0xffffffff, null],
  ];
  for (const [flags, want] of cases) t.same(decodeFspFlags(flags), want, `flags 0x${flags.toString(16)}`);
});

for (const [kind, sizes] of [['full_crc32', [4096, 16384, 65536]], ['crc32', [4096, 16384, 65536]]] as const) {
  for (const ps of sizes) {
    t.test(`${kind} ${ps}: real pages are valid, damage is named`, async (t) => {
      const p0 = loadPage(`${kind}-${ps}-p0`);
      const format = formatOf(p0);
      t.equal(format.pageSize, ps);
      t.equal(format.fullCrc32, kind === 'full_crc32');
      const ctx: PageContext = { format, pageNo: 3, spaceId: readSpaceHeader(p0).spaceId };
      t.same(verifyPage(loadPage(`${kind}-${ps}-p3`), ctx), { valid: true, zero: false });
      t.same(verifyPage(p0, { ...ctx, pageNo: 0 }), { valid: true, zero: false });

      const flipped = loadPage(`${kind}-${ps}-p3`);
      flipped[ps / 2] = flipped[ps / 2]! ^ 0x40;
      t.match(verifyPage(flipped, ctx), { valid: false, reason: 'checksum-mismatch' });

      const torn = loadPage(`${kind}-${ps}-p3`);
      torn.fill(0, ps - 4096 + (ps === 4096 ? 2048 : 0)); // the last unit never landed
      t.match(verifyPage(torn, ctx), { valid: false, reason: 'lsn-mismatch' });

      t.match(verifyPage(loadPage(`${kind}-${ps}-p3`), { ...ctx, pageNo: 4 }), { valid: false, reason: 'page-number-mismatch' });
      t.match(verifyPage(loadPage(`${kind}-${ps}-p3`), { ...ctx, spaceId: 99 }), { valid: false, reason: 'space-id-mismatch' });
      t.same(verifyPage(Buffer.alloc(ps), ctx), { valid: true, zero: true });
    });
  }
}

t.test('legacy pages: innodb and none checksums pass, a wrong old-style checksum fails', async (t) => {
  const p0 = loadPage('crc32-16384-p0');
  const ctx: PageContext = { format: formatOf(p0), pageNo: 3, spaceId: 6 };
  const page = loadPage('crc32-16384-p3');
  stampPage(page, 'innodb');
  t.same(verifyPage(page, ctx), { valid: true, zero: false }, 'innodb fold checksums');
  writeU32(page, page.length - 8, 12345);
  t.match(verifyPage(page, ctx), { valid: false, reason: 'checksum-mismatch' });
  writeU32(page, 0, 0xdeadbeef);
  writeU32(page, page.length - 8, 0xdeadbeef);
  t.same(verifyPage(page, ctx), { valid: true, zero: false }, 'innodb_checksum_algorithm=none');
});

t.test('legacy empty page with only a flush LSN is valid; full_crc32 page with stray bytes is not', async (t) => {
  const legacy: PageContext = { format: { fullCrc32: false, pageSize: 16384, zipSize: 0 }, pageNo: 0, spaceId: 0 };
  const page = Buffer.alloc(16384);
  page.fill(7, 26, 34);
  t.same(verifyPage(page, legacy), { valid: true, zero: true });
  const full: PageContext = { ...legacy, format: { ...legacy.format, fullCrc32: true } };
  t.match(verifyPage(page, full), { valid: false, reason: 'checksum-mismatch' });
});

t.test('a buffer of the wrong size is a caller bug', async (t) => {
  t.throws(() => verifyPage(Buffer.alloc(100), { format: { fullCrc32: true, pageSize: 16384, zipSize: 0 }, pageNo: 0, spaceId: 0 }));
});

// No page_compressed table exists in the fixtures: this page is synthetic, laid out as MariaDB's
// buf_page_full_crc32_size reads it (bit 15 of the page type set, payload size / 256 below it).
t.test('full_crc32 page_compressed pages are checked over their payload', async (t) => {
  const ctx: PageContext = { format: { fullCrc32: true, pageSize: 16384, zipSize: 0 }, pageNo: 3, spaceId: 5 };
  const page = loadPage('full_crc32-16384-p3');
  const size = 4096;
  page.fill(0, size);
  page.writeUInt16BE(0x8000 | (size >> 8), 24);
  writeU32(page, size - 4, crc32c(page, 0, size - 4));
  t.same(verifyPage(page, ctx), { valid: true, zero: false });
  page[100] = page[100]! ^ 1;
  t.match(verifyPage(page, ctx), { valid: false, reason: 'checksum-mismatch' });
  page.writeUInt16BE(0x8000 | 0x7fff, 24);
  t.match(verifyPage(page, ctx), { valid: false, faults: [{ detail: /impossible/ }] });
});
