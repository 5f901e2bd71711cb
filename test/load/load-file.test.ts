/**
 * The load a cut keeps (rig/load/load-file.ts): what the ledger check needs comes back as it was
 * written; a cut without one reads as null; a file that is not one is an error naming it.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLoadFile, writeLoadFile } from '../../rig/load/load-file.js';
import type { LoadResult } from '../../rig/load/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-load-file-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const load: LoadResult = {
  kind: 'builtin', ledger: true, acked: new Map([[1, 40], [2, 38]]), ackedCount: 78, begun: new Map([[1, 41], [2, 39]]),
  lifecycle: { acked: 2, tables: [{ table: 'churn_1', kind: 'churn', client: 1, history: ['a', 'b', 'c'], inFlight: 'd' }] },
  retried: 3, bucketMs: 500, throughput: [{ tMs: 0, commits: 78 }], errors: [], durationMs: 1234, endedBy: 'connection-lost',
};

t.test('written and read back: the ledger, the bounds and the lifecycle steps', async (t) => {
  const path = join(dir, 'load.json');
  writeLoadFile(path, load);
  const back = readLoadFile(path)!;
  t.same([...back.acked], [[1, 40], [2, 38]]);
  t.same([...back.begun!], [[1, 41], [2, 39]]);
  t.equal(back.ackedCount, 78);
  t.same(back.lifecycle, load.lifecycle);
  t.equal(back.ledger, true);
  t.equal(back.endedBy, 'connection-lost');
});

t.test('a load with no ledger keeps its note', async (t) => {
  const path = join(dir, 'sysbench.json');
  writeLoadFile(path, { ...load, kind: 'sysbench', ledger: false, note: 'sysbench keeps no ledger', acked: new Map(), begun: undefined, lifecycle: undefined } as unknown as LoadResult);
  const back = readLoadFile(path)!;
  t.equal(back.ledger, false);
  t.equal(back.note, 'sysbench keeps no ledger');
  t.equal(back.begun, undefined);
});

t.test('no file: null; not a load file: an error naming it', async (t) => {
  t.equal(readLoadFile(join(dir, 'none.json')), null);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{not json');
  t.throws(() => readLoadFile(bad), { message: new RegExp(`^${bad}: not a load file the rig wrote`) });
});
