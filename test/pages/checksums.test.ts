import t from 'tap';
import { createRequire } from 'node:module';
import { createRng } from '../../faults/prng.js';
import { crc32c, crc32cIsNative, crc32cTable } from '../../rig/pages/crc32c.js';
import { crc32PageChecksum, fullCrc32Checksum, innodbNewChecksum, innodbOldChecksum } from '../../rig/pages/checksums.js';
import { readU32 } from '../../rig/pages/page-format.js';
import { loadPage, stampPage } from '../fixtures/pages/fixture-pages.js';

t.test('CRC-32C matches the standard check values', async (t) => {
  t.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
  t.equal(crc32c(Buffer.alloc(32)), 0x8a9136aa); // RFC 3720 B.4: 32 bytes of zeros
  t.equal(crc32c(Buffer.alloc(32, 0xff)), 0x62a8ab43); // RFC 3720 B.4: 32 bytes of 0xff
  const ascending = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
  t.equal(crc32c(ascending), 0x46dd794e); // RFC 3720 B.4: 00..1f
  t.equal(crc32c(Buffer.alloc(0)), 0);
});

t.test('the table CRC-32C matches the standard check values too', async (t) => {
  t.equal(crc32cTable(Buffer.from('123456789')), 0xe3069283);
  t.equal(crc32cTable(Buffer.alloc(32, 0xff)), 0x62a8ab43);
  t.equal(crc32cTable(Buffer.alloc(0)), 0);
});

/** Whether @node-rs/crc32 publishes a binary for this machine (its optional packages, one per platform). */
function binaryPublished(): boolean {
  const manifest = createRequire(import.meta.url)('@node-rs/crc32/package.json') as { optionalDependencies?: Record<string, string> };
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  const libc = process.platform === 'linux' ? (glibc ? '-gnu' : '-musl') : '';
  const prefix = `@node-rs/crc32-${process.platform}-${process.arch}${libc}`;
  return Object.keys(manifest.optionalDependencies ?? {}).some((name) => name === prefix || name.startsWith(libc ? prefix : `${prefix}-`));
}

t.test('CRC-32C runs natively wherever @node-rs/crc32 publishes a binary, and by table elsewhere', async (t) => {
  const published = binaryPublished();
  t.equal(crc32cIsNative, published, published ? 'a binary is published for this machine: it is loaded' : 'no binary for this machine: the table');
});

t.test('native and table CRC-32C agree on random ranges and seeds (seeded)', async (t) => {
  const rng = createRng(0x2545f491);
  const buf = Buffer.from(Array.from({ length: 70000 }, () => rng.int(256)));
  let differ = 0;
  for (let i = 0; i < 300; i++) {
    const start = rng.int(buf.length);
    const end = start + rng.int(buf.length - start + 1);
    const seed = i % 3 === 0 ? 0 : rng.int(2 ** 32);
    const view = i % 2 ? buf : new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
    if (crc32c(view, start, end, seed) !== crc32cTable(view, start, end, seed)) differ++;
  }
  t.equal(differ, 0, '300 ranges');
});

t.test('CRC-32C over a range and continued from a seed equals the whole', async (t) => {
  const buf = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff));
  for (const cut of [0, 1, 7, 8, 9, 500, 999, 1000]) {
    t.equal(crc32c(buf, cut, 1000, crc32c(buf, 0, cut)), crc32c(buf), `split at ${cut}`);
  }
  t.equal(crc32c(buf, 10, 20), crc32c(buf.subarray(10, 20)));
});

for (const ps of [4096, 16384, 65536]) {
  t.test(`full_crc32 checksum equals what MariaDB stored on ${ps}-byte pages`, async (t) => {
    for (const n of [0, 3]) {
      const page = loadPage(`full_crc32-${ps}-p${n}`);
      t.equal(fullCrc32Checksum(page), readU32(page, ps - 4), `page ${n}`);
    }
  });
  t.test(`crc32 checksum equals what MariaDB stored on ${ps}-byte pages`, async (t) => {
    for (const n of [0, 3]) {
      const page = loadPage(`crc32-${ps}-p${n}`);
      t.equal(crc32PageChecksum(page), readU32(page, 0), `page ${n} field 1`);
      t.equal(crc32PageChecksum(page), readU32(page, ps - 8), `page ${n} field 2`);
    }
  });
}

t.test('crc32 checksum ignores the checksum, flush-LSN and space-id fields', async (t) => {
  const page = loadPage('crc32-16384-p3');
  const before = crc32PageChecksum(page);
  page.fill(0x5a, 0, 4);
  page.fill(0x5a, 26, 38);
  page.fill(0x5a, page.length - 8, page.length);
  t.equal(crc32PageChecksum(page), before);
  page[100] = page[100]! ^ 1;
  t.not(crc32PageChecksum(page), before);
});

t.test('innodb fold checksums cover the documented ranges', async (t) => {
  const page = loadPage('crc32-16384-p3');
  stampPage(page, 'innodb');
  const oldSum = innodbOldChecksum(page);
  const newSum = innodbNewChecksum(page);
  t.equal(readU32(page, 0), newSum);
  t.not(oldSum, newSum, 'old and new style differ');
  page[30] = page[30]! ^ 0xff; // flush LSN: in neither range
  t.equal(innodbNewChecksum(page), newSum);
  page[10] = page[10]! ^ 0xff; // in both
  t.not(innodbNewChecksum(page), newSum);
  t.not(innodbOldChecksum(page), oldSum);
});
