import t from 'tap';
import { deviceRangesOf, largest, mergeAdjacent } from '../../rig/pages/device-ranges.js';

t.test('a file byte range maps to the device through its extents, split where the extents split', async (t) => {
  const extents = [
    { logical: 0, physical: 1 << 20, length: 1 << 20, unwritten: false },
    { logical: 1 << 20, physical: 8 << 20, length: 4 << 20, unwritten: false },
  ];
  const ps = 16384;
  t.same(deviceRangesOf(extents, 64 * ps, 192 * ps), [
    { offset: 8 << 20, length: 2 << 20 },
  ], 'pages 64-191 of ibdata1 at 16k: the second extent');
  t.same(deviceRangesOf(extents, 32 * ps, 96 * ps), [
    { offset: (1 << 20) + 32 * ps, length: 32 * ps },
    { offset: 8 << 20, length: 32 * ps },
  ]);
  t.same(deviceRangesOf(extents, 6 << 20, 7 << 20), [], 'past the file: nothing');
});

t.test('touching and overlapping ranges join; separate ones stay apart, in offset order', async (t) => {
  t.same(mergeAdjacent([{ offset: 100, length: 50 }, { offset: 0, length: 100 }, { offset: 120, length: 10 }, { offset: 200, length: 1 }]), [
    { offset: 0, length: 150 },
    { offset: 200, length: 1 },
  ]);
  t.same(mergeAdjacent([]), []);
});

t.test('cut down to the largest ranges, nothing between them is added', async (t) => {
  const ranges = [{ offset: 0, length: 4 }, { offset: 10, length: 1 }, { offset: 20, length: 8 }, { offset: 40, length: 2 }];
  t.same(largest(ranges, 2), [{ offset: 0, length: 4 }, { offset: 20, length: 8 }]);
  t.same(largest(ranges, 9), ranges, 'fewer than the limit: all of them');
});
