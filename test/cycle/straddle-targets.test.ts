import t from 'tap';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';
import { mapStraddles, writeTarget } from '../../rig/cycle/straddle-targets.js';
import { describeStraddleTargets, straddleIsBad, tallyStraddles } from '../../reports/straddles.js';
import type { CycleRecord } from '../../rig/results/types.js';

const MiB = 1 << 20;
function file(rel: string, kind: MappedFile['kind'], physical: number, length: number): MappedFile {
  return { rel, kind, size: length, pageSize: kind ? 16384 : null, firstPage: 0, extents: [{ logical: 0, physical, length, unwritten: false }] };
}
const files = [
  file('./ibdata1', 'system', 1 * MiB, 12 * MiB),
  file('./ib_logfile0', null, 20 * MiB, 96 * MiB),
  file('./sbtest/sbtest1.ibd', 'table', 200 * MiB, 4 * MiB),
  file('./aria_log.00000001', null, 210 * MiB, MiB),
];
const map: ExtentMap = {
  mountPoint: '/m', datadir: '/m/d', files,
  byDevice: files.flatMap((f) => f.extents.map((e) => ({ ...e, file: f }))).sort((a, b) => a.physical - b.physical),
};

t.test('each straddling page write is named by the file it wrote', async (t) => {
  t.equal(writeTarget(map, 200 * MiB + 4096, 16384), 'tablespace');
  t.equal(writeTarget(map, 20 * MiB + 512, 16384), 'redo', 'a 16 KiB redo write at a 512-byte-aligned offset');
  t.equal(writeTarget(map, 210 * MiB + 4096, 16384), 'other');
  t.equal(writeTarget(map, 300 * MiB + 4096, 16384), 'filesystem', 'no datadir file there: the journal or metadata');
  const counts = mapStraddles([20 * MiB + 512, 20 * MiB + 1024, 300 * MiB, 1 * MiB + 8192], 6, map, 16384);
  t.same(counts, { tablespace: 1, redo: 2, other: 0, filesystem: 1, unlisted: 2 });
});

const cycle = (straddling: number, straddled?: CycleRecord['cut'] extends infer C ? C extends { straddled?: infer S } ? S : never : never) =>
  ({ cut: { reason: 'armed', atMs: 1, pending: 1, pendingPageWrites: 1, stats: { writes: 1, flushes: 1, bytesWritten: 1, pageWrites: 153, pageWritesMisaligned: 0, pageWritesStraddling: straddling, writesBySize: {} }, ...(straddled ? { straddled } : {}) } }) as CycleRecord;

t.test('only a tablespace straddle (or one nobody named) is bad; the others are named', async (t) => {
  const redoOnly = tallyStraddles([cycle(1, { tablespace: 0, redo: 1, other: 0, filesystem: 0, unlisted: 0 })]);
  t.equal(straddleIsBad(redoOnly), false);
  t.equal(describeStraddleTargets(redoOnly), 'redo log 1');
  const page = tallyStraddles([cycle(2, { tablespace: 1, redo: 1, other: 0, filesystem: 0, unlisted: 0 }), cycle(0)]);
  t.equal(straddleIsBad(page), true);
  t.equal(describeStraddleTargets(page), 'tablespace page 1, redo log 1');
  t.equal(straddleIsBad(tallyStraddles([cycle(1)])), true, 'an older record that names nothing counts as possibly a page');
  t.equal(straddleIsBad(tallyStraddles([cycle(0)])), false);
});
