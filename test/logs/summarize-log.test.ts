import t from 'tap';
import { summarizeLog } from '../../rig/logs/index.js';
import type { LogEvent } from '../../rig/results/types.js';

t.test('no events: nothing counted, neither ready nor aborted', async (t) => {
  const summary = summarizeLog([]);
  t.same(Object.values(summary.counts), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
  t.same([summary.ready, summary.aborted, summary.corruptPages, summary.restoredPages], [false, false, [], []]);
});

const events: LogEvent[] = [
  { line: 1, kind: 'corruption', text: 'a', space: 7, page: 0 },
  { line: 2, kind: 'corruption', text: 'b', space: 7, page: 0, file: './db/t3.ibd' },
  { line: 3, kind: 'corruption', text: 'c', page: 1, file: './db/t1.ibd' },
  { line: 4, kind: 'corruption', text: 'd', page: 1, file: './db/t1.ibd' },
  { line: 5, kind: 'corruption', text: 'e', file: './ibdata1' },
  { line: 6, kind: 'lsn-in-future', text: 'f', space: 5, page: 61 },
  { line: 7, kind: 'doublewrite-restore', text: 'g', space: 5, page: 9 },
  { line: 8, kind: 'abort', text: 'h' },
];

t.test('pages are merged by space and page, or by file and page, and keep the file either line named', async (t) => {
  const summary = summarizeLog(events);
  t.same(summary.corruptPages, [
    { space: 7, page: 0, file: './db/t3.ibd' },
    { page: 1, file: './db/t1.ibd' },
  ]);
  t.same(summary.restoredPages, [{ space: 5, page: 9 }]);
  t.same(summary.counts, {
    corruption: 5, 'rocksdb-wal': 0, 'doublewrite-restore': 1, 'lsn-in-future': 1, abort: 1,
    'recovery-start': 0, 'recovery-done': 0, ready: 0, error: 0,
  });
  t.same([summary.ready, summary.aborted], [false, true]);
});

t.test('a file named only by the first line is kept when the second names none', async (t) => {
  const summary = summarizeLog([
    { line: 1, kind: 'corruption', text: 'a', space: 7, page: 0, file: './db/t3.ibd' },
    { line: 2, kind: 'corruption', text: 'b', space: 7, page: 0 },
    { line: 3, kind: 'ready', text: 'c' },
  ]);
  t.same(summary.corruptPages, [{ space: 7, page: 0, file: './db/t3.ibd' }]);
  t.equal(summary.ready, true);
});
