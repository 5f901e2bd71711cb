/**
 * Doublewrite copies the filesystem reads as zeros (rig/pages/unwritten-copies.ts), on bytes from
 * a real crash image: test/fixtures/dblwr-unwritten/README.md says where they came from.
 */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileExtent } from '../../rig/pages/filefrag.js';
import type { MappedFile } from '../../rig/pages/extent-map.js';
import { readUnwrittenAreaCopies } from '../../rig/pages/unwritten-copies.js';
import { makeTempDir } from '../fixtures/pages/synthetic-datadir.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const PS = 16384;
const fixture = (name: string): Buffer => readFileSync(fixtureFile('dblwr-unwritten', name));
const area = { blocks: [64, 128] as [number, number], blockPages: 64 };
const full = new Map([[8, { fullCrc32: true, pageSize: PS, zipSize: 0 }]]);
const ibdata1 = (extents: FileExtent[]): MappedFile => ({ rel: './ibdata1', kind: 'system', size: 768 * PS, pageSize: PS, firstPage: 0, extents });

t.test('the crash image of the refusal: slot 114 lies in an unwritten extent and holds the copy of space 8 page 95', async (t) => {
  const extents = JSON.parse(fixture('ibdata1-extents.json').toString()) as FileExtent[];
  // the device as the crash image holds it, from slot 114's physical offset on: the copy, then zeros
  const dir = makeTempDir(t, 'rig-unwritten-');
  const image = join(dir, 'image.img');
  const base = extents.find((e) => e.logical === 114 * PS)!.physical;
  const device = Buffer.alloc(base + 78 * PS);
  fixture('slot114-device.page').copy(device, base);
  writeFileSync(image, device);
  const copies = await readUnwrittenAreaCopies(image, ibdata1(extents), area, PS, full);
  t.same(copies, [{ space: 8, page: 95, lsn: 12240902, valid: true, source: { file: './ibdata1', slot: 114 } }],
    'slots 114-191 are unwritten; only 114 holds bytes on the device');
});

t.test('slots in written extents are left to the ordinary read; a torn copy is reported invalid', async (t) => {
  const dir = makeTempDir(t, 'rig-unwritten-');
  const image = join(dir, 'image.img');
  const page = fixture('slot114-device.page');
  const torn = Buffer.from(page);
  torn.fill(0, 4096, 8192);
  writeFileSync(image, Buffer.concat([page, page, torn]));
  const extents: FileExtent[] = [
    { logical: 64 * PS, physical: 0, length: PS, unwritten: false }, // slot 64: written, the file shows it
    { logical: 65 * PS, physical: PS, length: 2 * PS, unwritten: true }, // slots 65, 66
  ];
  const copies = await readUnwrittenAreaCopies(image, ibdata1(extents), area, PS, full);
  t.same(copies.map((c) => [c.source.slot, c.valid]), [[65, true], [66, false]]);
  t.ok(copies[1]!.reason, 'the torn copy says why it is invalid');
  t.same(await readUnwrittenAreaCopies(image, ibdata1([{ logical: 64 * PS, physical: 0, length: 3 * PS, unwritten: false }]), area, PS, full), [],
    'no unwritten extent: nothing to read');
});
