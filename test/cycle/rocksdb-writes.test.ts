/**
 * The writes pending at the cut into RocksDB's files (rig/cycle/rocksdb-writes.ts): the log's
 * writes by fate, apart from the SST and MANIFEST writes, each write counted once per file.
 */
import t from 'tap';
import type { CrashPlan, Fate } from '../../faults/crash-plan.js';
import { rocksdbWrites, walTailLost } from '../../rig/cycle/rocksdb-writes.js';
import type { ExtentMap, MappedFile } from '../../rig/pages/extent-map.js';

const MiB = 1 << 20;
const file = (rel: string, physical: number): MappedFile => ({
  rel, kind: null, size: MiB, pageSize: null, firstPage: 0, extents: [{ logical: 0, physical, length: MiB, unwritten: false }],
});
const files = [file('./#rocksdb/000004.log', 1 * MiB), file('./#rocksdb/000009.sst', 2 * MiB), file('./#rocksdb/MANIFEST-000005', 3 * MiB), file('./ibdata1', 4 * MiB)];
const map: ExtentMap = { mountPoint: '/m', datadir: '/m/d', files, byDevice: files.flatMap((f) => f.extents.map((e) => ({ ...e, file: f }))) };

const plan = (writes: [number, number, Fate][]): CrashPlan => ({
  version: 1, seed: 1, atomicUnit: 4096, policy: { land: 0.3, drop: 0.3, tear: 0.4 },
  writes: writes.map(([offset, length, fate], seq) => ({ seq, offset, length, fate, units: Math.ceil(length / 4096), unitsLanded: [] })),
});

t.test('log writes by fate, other RocksDB files apart, InnoDB files not at all', async (t) => {
  const writes = rocksdbWrites(plan([
    [MiB + 8192, 4096, 'dropped'], [MiB + 12288, 4096, 'landed'], [2 * MiB, 65536, 'torn'], [3 * MiB, 4096, 'landed'], [4 * MiB, 16384, 'torn'],
  ]), map);
  t.same(writes.wal, { files: ['./#rocksdb/000004.log'], landed: 1, dropped: 1, torn: 0 });
  t.same(writes.other, { files: ['./#rocksdb/000009.sst', './#rocksdb/MANIFEST-000005'], landed: 1, dropped: 0, torn: 1 });
  t.ok(walTailLost(writes), 'a dropped log write leaves the tail short');
});

t.test('a write spanning two files counts for each', async (t) => {
  const writes = rocksdbWrites(plan([[2 * MiB - 4096, 8192, 'torn']]), map);
  t.same([writes.wal.torn, writes.other.torn], [1, 1]);
});

t.test('every log write landed, or none pending: the tail is whole', async (t) => {
  t.notOk(walTailLost(rocksdbWrites(plan([[MiB, 4096, 'landed'], [2 * MiB, 4096, 'dropped']]), map)));
  t.notOk(walTailLost(rocksdbWrites(plan([]), map)));
  t.notOk(walTailLost(undefined), 'InnoDB tables: no record');
});
