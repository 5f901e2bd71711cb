import t from 'tap';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import { parseFilefrag } from '../../rig/pages/filefrag.js';
import { mapRangeToPages } from '../../rig/pages/map-range.js';

// Output in the shape `filefrag -e -v -b512` prints (taken from a run on ext4 here, edited to add a
// second extent, an unwritten one, inline data and a file name with a space; the int test reads live output).
const RECORDED = `Filesystem type is: ef53
File size of /mnt/d/db/t.ibd is 98304 (192 blocks of 512 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0..      63:      67584..     67647:     64:            
   1:       64..     191:      69632..     69759:    128:      67648: last,eof
/mnt/d/db/t.ibd: 2 extents found
File size of /mnt/d/my file is 8192 (16 blocks of 512 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0..      15:      90000..     90015:     16:             last,unwritten,eof
/mnt/d/my file: 1 extent found
File size of /mnt/d/tiny is 60 (1 block of 512 bytes)
 ext:     logical_offset:        physical_offset: length:   expected: flags:
   0:        0..       0:          0..         0:      1:             last,not_aligned,inline,eof
/mnt/d/tiny: 1 extent found
`;

t.test('filefrag output parses to byte extents per file', async (t) => {
  const files = parseFilefrag(RECORDED);
  t.same(files.get('/mnt/d/db/t.ibd'), [
    { logical: 0, physical: 67584 * 512, length: 64 * 512, unwritten: false },
    { logical: 64 * 512, physical: 69632 * 512, length: 128 * 512, unwritten: false },
  ]);
  t.same(files.get('/mnt/d/my file'), [{ logical: 0, physical: 90000 * 512, length: 8192, unwritten: true }]);
  t.same(files.get('/mnt/d/tiny'), [], 'inline data has no place on the device');
});

function fakeMap(): ExtentMap {
  const file = (rel: string, kind: MappedFile['kind'], pageSize: number | null, extents: [number, number, number][], firstPage = 0): MappedFile => ({
    rel, kind, size: 0, pageSize, firstPage,
    extents: extents.map(([logical, physical, length]) => ({ logical, physical, length, unwritten: false })),
  });
  const files = [
    // t.ibd: pages 0-1 at device 1 MiB, pages 2-5 at device 4 MiB + 4 KiB (not 16 KiB aligned)
    file('./db/t.ibd', 'table', 16384, [[0, 1 << 20, 32768], [32768, (4 << 20) + 4096, 65536]]),
    file('./ibdata2', 'system', 16384, [[0, 2 << 20, 32768]], 768),
    file('./ib_logfile0', null, null, [[0, 3 << 20, 65536]]),
  ];
  const byDevice = files.flatMap((f) => f.extents.map((e) => ({ ...e, file: f }))).sort((a, b) => a.physical - b.physical);
  return { mountPoint: '/mnt', datadir: '/mnt', files, byDevice };
}

t.test('a device range maps to (file, page, range in page)', async (t) => {
  const map = fakeMap();
  t.same(mapRangeToPages(map, (1 << 20) + 16384, 16384), [
    { file: './db/t.ibd', kind: 'table', page: 1, pageOffset: 0, length: 16384, deviceOffset: (1 << 20) + 16384, unwritten: false },
  ], 'one whole page');
  t.same(mapRangeToPages(map, (4 << 20) + 4096 + 8192, 16384).map((h) => [h.page, h.pageOffset, h.length]), [
    [2, 8192, 8192], [3, 0, 8192],
  ], 'a 16 KiB device unit across two pages of a misaligned extent');
  t.same(mapRangeToPages(map, (2 << 20) + 16384 + 512, 512).map((h) => [h.file, h.page, h.pageOffset]), [
    ['./ibdata2', 769, 512],
  ], 'ibdata2 continues the system tablespace page numbers');
  t.same(mapRangeToPages(map, (3 << 20) + 100, 50).map((h) => [h.file, h.page, h.pageOffset, h.length]), [
    ['./ib_logfile0', null, 100, 50],
  ], 'a non-tablespace file gets a file offset');
  t.same(mapRangeToPages(map, 0, 4096), [], 'filesystem metadata hits no file');
  t.same(mapRangeToPages(map, (1 << 20) - 512, 1024).map((h) => [h.page, h.pageOffset, h.length]), [[0, 0, 512]], 'partly outside');
  t.same(mapRangeToPages(map, 1 << 20, 16384, 4096).map((h) => h.page), [0, 1, 2, 3], 'page size override');
});

t.test('a range spanning several extents and files yields hits in device order', async (t) => {
  const hits = mapRangeToPages(fakeMap(), 1 << 20, 3 << 20);
  t.same(hits.map((h) => `${h.file}:${h.page}`), ['./db/t.ibd:0', './db/t.ibd:1', './ibdata2:768', './ibdata2:769', './ib_logfile0:null']);
});
