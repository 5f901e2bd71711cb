import t from 'tap';
import { deviceRangesOf } from '../../rig/pages/doublewrite-device-ranges.js';

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
