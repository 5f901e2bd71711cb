import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { classifyErrorLog, classifyLine, logSegments, summarizeLog } from '../../rig/logs/index.js';
import type { LogEventKind } from '../../rig/results/types.js';
import { fixtureFile } from '../fixtures/fixture-files.js';

const fixtures = fixtureFile() + '/';
const read = (dir: string, file: string) => readFileSync(`${fixtures}${dir}/${file}`, 'utf8');

type Counts = Partial<Record<LogEventKind, number>>;
interface LogCase {
  dir: string;
  file: string;
  counts: Counts; // kinds not listed must count 0
  ready: boolean;
  aborted: boolean;
  corruptPages?: { space?: number; page: number; file?: string }[];
}

const MARIADB = 'mariadb-10.11-error-logs';
const MYSQL = 'mysql-8-error-logs';
const MARIADB118 = 'mariadb-11.8-error-logs';
const MYSQL97 = 'mysql-9.7-error-logs';
const MYROCKS = 'myrocks-11.8-error-logs';

// Expected figures come from each fixture folder's README (and the lines it quotes).
const logCases: LogCase[] = [
  {
    dir: MARIADB, file: 'dw-on-4k-restored-logged.log', ready: true, aborted: false, corruptPages: [],
    counts: { 'doublewrite-restore': 21, 'recovery-start': 3, ready: 1 },
  },
  {
    dir: MARIADB, file: 'dw-on-4k-restored-silent.log', ready: true, aborted: false, corruptPages: [],
    counts: { 'recovery-start': 3, ready: 1 },
  },
  {
    dir: MARIADB, file: 'dw-off-4k-refused-ibd.log', ready: false, aborted: true,
    counts: { corruption: 70, 'lsn-in-future': 5, abort: 4, 'recovery-start': 2, error: 5 },
  },
  {
    dir: MARIADB, file: 'dw-off-4k-refused-ibdata1.log', ready: false, aborted: true, corruptPages: [],
    counts: { corruption: 2, abort: 4 },
  },
  {
    dir: MARIADB, file: 'dw-off-16k-ext4-misaligned-refused.log', ready: false, aborted: true,
    corruptPages: [{ page: 1, file: './sbtest/sbtest1.ibd' }],
    counts: { corruption: 2, abort: 4, 'recovery-start': 2 },
  },
  {
    dir: MARIADB, file: 'dw-off-16k-ext4-misaligned-refused-2.log', ready: false, aborted: true,
    corruptPages: [
      { space: 7, page: 0, file: './sbtest/sbtest3.ibd' },
      ...[298, 299, 300].map((page) => ({ page, file: './ibdata1' })),
      ...[61, 108, 166, 169, 170].map((page) => ({ page, file: './sbtest/sbtest1.ibd' })),
    ],
    counts: { corruption: 9, 'lsn-in-future': 8, abort: 4, 'recovery-start': 2, error: 8 },
  },
  {
    // ADD/DROP PARTITION in the load: refused on the redo log's file records before applying any redo
    dir: MARIADB, file: 'ddl-partitions-missing-file-modify-refused.log', ready: false, aborted: true, corruptPages: [],
    counts: { abort: 4, 'recovery-start': 1, error: 1 },
  },
  {
    // TRUNCATE PARTITION twice since the checkpoint: refused the same way (docs/findings/create-then-rename.md)
    dir: MARIADB, file: 'partitions-create-then-rename.log', ready: false, aborted: true, corruptPages: [],
    counts: { abort: 4, 'recovery-start': 1, error: 1 },
  },
  {
    // pages 0-2 of sbtest2.ibd tore in one write; the server restored none of the file and started
    dir: MARIADB, file: 'dw-on-4k-page0-torn-started.log', ready: true, aborted: false,
    corruptPages: [{ page: 0, file: './sbtest/sbtest2.ibd' }],
    counts: { corruption: 27, 'recovery-start': 2, ready: 1 },
  },
  {
    dir: MARIADB118, file: 'dw-on-4k-restored-logged.log', ready: true, aborted: false, corruptPages: [],
    counts: { 'doublewrite-restore': 45, 'recovery-start': 2, ready: 1 },
  },
  {
    // page 0 of sbtest1.ibd torn with pages 1-3 intact and an accepted copy: not restored
    dir: MARIADB118, file: 'dw-fast-4k-page0-torn-started.log', ready: true, aborted: false,
    corruptPages: [{ page: 0, file: './sbtest/sbtest1.ibd' }],
    counts: { corruption: 38, 'doublewrite-restore': 26, 'recovery-start': 2, ready: 1 },
  },
  {
    dir: MARIADB118, file: 'dw-on-nofsync-4k-page0-restored-one-file.log', ready: true, aborted: false,
    corruptPages: [{ page: 0, file: './sbtest/sbtest2.ibd' }],
    counts: { corruption: 43, 'doublewrite-restore': 32, 'recovery-start': 2, ready: 1 },
  },
  {
    dir: MARIADB118, file: 'dw-off-4k-refused-ibd.log', ready: false, aborted: true,
    corruptPages: [
      { page: 2, file: './undo002' }, { page: 36, file: './undo002' },
      ...[15, 41, 53, 153].map((page) => ({ page, file: './sbtest/sbtest2.ibd' })),
    ],
    counts: { corruption: 6, abort: 4, 'recovery-start': 2 },
  },
  {
    dir: MARIADB118, file: 'dw-off-4k-refused-undo-page0.log', ready: false, aborted: true,
    corruptPages: [{ space: 1, page: 0, file: './undo001' }, { page: 0, file: './undo001' }],
    counts: { corruption: 2, abort: 4 },
  },
  {
    dir: MARIADB118, file: 'dw-off-4k-refused-ibd-page0.log', ready: false, aborted: true,
    corruptPages: [{ space: 9, page: 0, file: './sbtest/rig_history.ibd' }],
    counts: { corruption: 1, abort: 4, 'recovery-start': 1 },
  },
  {
    dir: MYSQL, file: 'mysql-8.0-dblwr-restored.log', ready: true, aborted: false, corruptPages: [],
    counts: { 'doublewrite-restore': 3, 'recovery-start': 2, 'recovery-done': 1, ready: 1 },
  },
  {
    dir: MYSQL, file: 'mysql-8.4-refused-corrupt.log', ready: false, aborted: true,
    corruptPages: [{ space: 7, page: 0, file: './sbtest/sbtest3.ibd' }],
    counts: { corruption: 2, 'lsn-in-future': 1, abort: 4, 'recovery-start': 2, error: 1 },
  },
  {
    // three torn page 0s, each "Checksum mismatch in datafile" then restored; 46 other pages restored
    dir: MYSQL97, file: 'dw-on-4k-restored-page0.log', ready: true, aborted: false, corruptPages: [],
    counts: { corruption: 3, 'doublewrite-restore': 49, 'recovery-start': 2, 'recovery-done': 2, ready: 1 },
  },
  {
    dir: MYSQL97, file: 'detect-and-recover-4k-restored.log', ready: true, aborted: false, corruptPages: [],
    counts: { 'doublewrite-restore': 24, 'recovery-start': 2, 'recovery-done': 2, ready: 1 },
  },
  {
    // the "Checksum mismatch in datafile: ./sbtest/sbtest1.ibd" line sits inside a page dump
    dir: MYSQL97, file: 'dw-off-4k-refused-page0.log', ready: false, aborted: true,
    corruptPages: [{ page: 41, space: 6 }, { page: 0, space: 4, file: './sbtest/sbtest1.ibd' }, { page: 21, space: 6 }, { page: 80, space: 6 }],
    counts: { corruption: 6, abort: 2, 'recovery-start': 2 },
  },
  {
    dir: MYSQL97, file: 'detect-only-4k-refused-stale-copy.log', ready: false, aborted: true,
    corruptPages: [{ page: 41, space: 6, file: './sbtest/sbtest3.ibd' }],
    counts: { corruption: 1, abort: 2, 'recovery-start': 2 },
  },
  {
    dir: MYSQL97, file: 'dw-on-after-writes-refused-torn-copy.log', ready: false, aborted: true,
    corruptPages: [{ page: 54, space: 6 }],
    counts: { corruption: 1, 'doublewrite-restore': 1, abort: 2, 'recovery-start': 2, error: 2 },
  },
  // MyRocks on 11.8: a cut that dropped a log write (the tail short: RocksDB opens), then breaks
  // made by hand in that cut's crash image, one per log reader status and one in an SST file
  { dir: MYROCKS, file: 'started-log-write-dropped.log', ready: true, aborted: false, corruptPages: [], counts: { ready: 1 } },
  { dir: MYROCKS, file: 'refused-truncated-header.log', ready: false, aborted: true, corruptPages: [], counts: { 'rocksdb-wal': 1, abort: 3 } },
  { dir: MYROCKS, file: 'refused-truncated-record-body.log', ready: false, aborted: true, corruptPages: [], counts: { 'rocksdb-wal': 1, abort: 3 } },
  { dir: MYROCKS, file: 'refused-checksum-mismatch.log', ready: false, aborted: true, corruptPages: [], counts: { 'rocksdb-wal': 1, abort: 3 } },
  { dir: MYROCKS, file: 'refused-sst-bad-magic.log', ready: false, aborted: true, corruptPages: [], counts: { corruption: 1, abort: 3 } },
];

t.test('every fixture log is covered by a case', async (t) => {
  for (const dir of [MARIADB, MARIADB118, MYSQL, MYSQL97, MYROCKS]) {
    const logs = readdirSync(`${fixtures}${dir}`).filter((f) => f.endsWith('.log'));
    t.same(logs.filter((f) => !logCases.some((c) => c.dir === dir && c.file === f)), [], dir);
  }
});

for (const c of logCases) {
  t.test(`${c.dir}/${c.file}`, async (t) => {
    const text = read(c.dir, c.file);
    const events = classifyErrorLog(text);
    const summary = summarizeLog(events);
    for (const [kind, n] of Object.entries(summary.counts)) {
      t.equal(n, c.counts[kind as LogEventKind] ?? 0, `${kind} lines`);
    }
    t.equal(summary.ready, c.ready, 'ready');
    t.equal(summary.aborted, c.aborted, 'aborted');
    if (c.corruptPages) t.same(summary.corruptPages, c.corruptPages, 'pages named as corrupt');
    // No [ERROR] line is ever dropped, and no [Note] line is reported as a bare error: line by line
    // as the server meant to write them (a MySQL line can sit inside a page dump).
    for (const segment of logSegments(text)) {
      const event = events.find((e) => e.line === segment.line && e.text === segment.text.trimEnd());
      if (/\[ERROR\]/.test(segment.text)) t.ok(event, `line ${segment.line} classified`);
      if (event && /\[Note\]/.test(segment.text)) t.not(event.kind, 'error', `line ${segment.line} is a note`);
    }
    t.equal(events.filter((e) => !logSegments(text).some((s) => s.line === e.line && s.text.trimEnd() === e.text)).length, 0, 'every event is one line or segment');
  });
}

t.test('the logged doublewrite restores name all 21 pages with their files', async (t) => {
  const text = read(MARIADB, 'dw-on-4k-restored-logged.log');
  const restores = classifyErrorLog(text).filter((e) => e.kind === 'doublewrite-restore');
  const expected = [...text.matchAll(/Recovered page \[page id: space=(\d+), page number=(\d+)\] to '([^']+)'/g)];
  t.equal(restores.length, 21);
  t.same(
    restores.map(({ space, page, file }) => ({ space, page, file })),
    expected.map((m) => ({ space: Number(m[1]), page: Number(m[2]), file: m[3] })),
  );
  t.same(restores[0], {
    line: 14, kind: 'doublewrite-restore', space: 5, page: 223, file: './sbtest/sbtest1.ibd',
    text: "2026-11-30  5:03:14 0 [Note] InnoDB: Recovered page [page id: space=5, page number=223] to './sbtest/sbtest1.ibd' from the doublewrite buffer.",
  });
  t.equal(summarizeLog(restores).restoredPages.length, 21);
});

t.test('the 219-torn-page log names 70 distinct corrupt pages and 5 LSN-in-the-future pages', async (t) => {
  const events = classifyErrorLog(read(MARIADB, 'dw-off-4k-refused-ibd.log'));
  const summary = summarizeLog(events);
  t.equal(summary.corruptPages.length, 70);
  t.same(summary.corruptPages[0], { page: 198, file: './ibdata1' });
  t.same(
    events.filter((e) => e.kind === 'lsn-in-future').map((e) => [e.space, e.page]),
    [[6, 2], [6, 36], [6, 48], [6, 120], [6, 128]],
  );
});

t.test('a torn ibdata1 page 0 is named by file, without a page number', async (t) => {
  const events = classifyErrorLog(read(MARIADB, 'dw-off-4k-refused-ibdata1.log'));
  const corruption = events.filter((e) => e.kind === 'corruption');
  t.match(corruption[1]?.text, /has the wrong space ID/);
  t.equal(corruption[1]?.file, './ibdata1');
  t.equal(corruption[1]?.page, undefined);
  t.same([corruption[0]?.file, corruption[0]?.space], ['./ibdata1', 0], 'checksum mismatch note names the space');
});

t.test('one torn page, then intact pages blamed: the first corruption line names the torn one', async (t) => {
  const events = classifyErrorLog(read(MARIADB, 'dw-off-16k-ext4-misaligned-refused-2.log'));
  const first = events.find((e) => e.kind === 'corruption');
  t.same([first?.line, first?.space, first?.page, first?.file], [14, 7, 0, './sbtest/sbtest3.ibd']);
});

t.test('CRLF logs classify the same and keep no carriage return', async (t) => {
  const text = read(MYSQL, 'mysql-8.4-refused-corrupt.log');
  const crlf = classifyErrorLog(text.replace(/\n/g, '\r\n'));
  t.same(crlf, classifyErrorLog(text));
  t.notOk(crlf.some((e) => e.text.includes('\r')));
});

// Single lines: MariaDB 10.11 / 11.x and MySQL 8.0 / 8.4 forms, and lines that must not count.
const lineCases: [string, LogEventKind | null, { space?: number; page?: number; file?: string }][] = [
  ["2025-01-10 10:00:00 0 [Note] InnoDB: Recovered page [page id: space=5, page number=3] to './test/t1.ibd' from the doublewrite buffer.", 'doublewrite-restore', { space: 5, page: 3, file: './test/t1.ibd' }],
  ['2025-01-10T10:00:00.000001Z 1 [Note] [MY-013550] [InnoDB] Recovered page [page id: space=9, page number=4] from the doublewrite buffer.', 'doublewrite-restore', { space: 9, page: 4 }],
  ["2025-01-10 10:00:00 0 [Note] InnoDB: Restoring page [page id: space=0, page number=5] of datafile './ibdata1' from the doublewrite buffer. Writing 1 pages", 'doublewrite-restore', { space: 0, page: 5, file: './ibdata1' }],
  ['2025-01-10 10:00:00 0 [Note] InnoDB: Restoring possible half-written data pages from the doublewrite buffer...', null, {}],
  ['2025-01-10 10:00:00 0 [Note] InnoDB: Trying to recover page [page id: space=5, page number=3] from the doublewrite buffer.', null, {}],
  ['2025-01-10T10:00:00.000001Z 1 [Note] [MY-013557] [InnoDB] Database page corruption of page [page id: space=5, page number=3]. Trying to recover it from the doublewrite buffer.', null, {}],
  ['2025-01-10 10:00:00 0 [Note] InnoDB: Set innodb_force_recovery=1 to ignore corrupted pages.', null, {}],
  ["2025-01-10 10:00:00 0 [ERROR] InnoDB: Database page corruption on disk or a failed read of file './test/t1.ibd' page [page id: space=5, page number=3]. You may have to recover from a backup.", 'corruption', { space: 5, page: 3, file: './test/t1.ibd' }],
  ["2025-01-10 10:00:00 0 [ERROR] InnoDB: Failed to read page 3 from file './test/t1.ibd': Page read from tablespace is corrupted.", 'corruption', { page: 3, file: './test/t1.ibd' }],
  ['2025-01-10T10:00:00.000001Z 1 [ERROR] [MY-011906] [InnoDB] Database page corruption on disk or a failed file read of page [page id: space=15, page number=10]. You may have to recover from a backup.', 'corruption', { space: 15, page: 10 }],
  ['2025-01-10 10:00:00 0 [ERROR] InnoDB: Page [page id: space=3, page number=4] checksum mismatch', 'corruption', { space: 3, page: 4 }],
  ['2025-01-10 10:00:00 0 [ERROR] InnoDB: Page [page id: space=0, page number=7] log sequence number 5187506 is in the future! Current system log sequence number 300306.', 'lsn-in-future', { space: 0, page: 7 }],
  ["2025-01-10T10:00:00.000001Z 10 [ERROR] [MY-011971] [InnoDB] Tablespace 'innodb_undo_001' Page [page id: space=4294967279, page number=260] log sequence number 33805135 is in the future! Current system log sequence number 29753816.", 'lsn-in-future', { space: 4294967279, page: 260 }],
  ['2025-01-10 10:00:00 0 [ERROR] InnoDB: Page [page id: space=5, page number=9] LSN 400 is greater than the end of the log 300', 'lsn-in-future', { space: 5, page: 9 }],
  ['2024-01-07  9:42:10 0 [Warning] InnoDB: Ignoring a doublewrite copy of page [page id: space=151, page number=4] with future log sequence number 5277265', null, {}],
  ['2025-01-10T10:00:00.000001Z 0 [ERROR] [MY-013183] [InnoDB] Assertion failure: buf0buf.cc:100:ut_a(x) thread 140301784655424', 'abort', {}],
  ['InnoDB: Failing assertion: x', 'abort', {}],
  ['2025-01-10T10:00:01Z UTC - mysqld got signal 6 ;', 'abort', {}],
  ['250110 10:00:01 [ERROR] mariadbd got signal 11 ;', 'abort', {}],
  ['2025-01-10T10:00:00.000001Z 22 [Note] [MY-010914] [Server] Aborted connection 4521 to db: \'shop\' user: \'app\' host: \'10.0.1.50\' (Got timeout reading communication packets).', null, {}],
  ['2025-01-10 10:00:00 0 [Note] InnoDB: Crash recovery finished.', 'recovery-done', {}],
  ['2025-01-10 10:00:00 0 [Note] InnoDB: To recover: 956 pages', 'recovery-start', {}],
  ['2025-01-10T10:00:00.000001Z 0 [System] [MY-011323] [Server] X Plugin ready for connections. Socket: /tmp/mysqlx.sock', null, {}],
  ['2025-01-10 10:00:00 0 [Note] /usr/sbin/mariadbd: ready for connections.', 'ready', {}],
  ["2025-01-10T10:00:00.000001Z 0 [ERROR] [MY-000067] [Server] unknown variable 'foo=1'.", 'error', {}],
  ['2025-01-10T10:00:00.000001Z 0 [Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.', null, {}],
];

for (const [text, kind, ref] of lineCases) {
  t.test(`${kind ?? 'ignored'}: ${text.slice(0, 90)}`, async (t) => {
    t.equal(classifyLine(text), kind);
    const events = classifyErrorLog(text);
    if (kind === null) return t.same(events, []);
    t.same(events, [{ line: 1, kind, text, ...ref }]);
  });
}

t.test('MariaDB 11.8 names undo files .//undo002: the page names ./undo002, as the rig does', async (t) => {
  const text = read(MARIADB118, 'dw-on-4k-restored-logged.log');
  const restores = classifyErrorLog(text).filter((e) => e.kind === 'doublewrite-restore');
  t.equal(restores.length, 45);
  t.ok(restores.some((e) => e.file === './undo002' && e.page === 0 && e.space === 2), 'page 0 of undo002');
  t.notOk(restores.some((e) => e.file?.includes('//')), 'no doubled slash left');
});

t.test('MySQL 9.7: a line inside a page dump is its own line; the dump names nothing', async (t) => {
  const dump = ` len 16384; hex ${'00'.repeat(40)}0042026-11-30T14:31:51.045719Z 1 [ERROR] [MY-012224] [InnoDB] Checksum mismatch in datafile: ./sbtest/sbtest1.ibd, Space ID:4, Flags: 16417.`;
  const events = classifyErrorLog(`2026-11-30T14:31:51.040000Z 1 [Note] [MY-012552] [InnoDB] Starting crash recovery.\n${dump}\n`);
  t.same(events.map((e) => [e.line, e.kind, e.space, e.file]), [[1, 'recovery-start', undefined, undefined], [2, 'corruption', 4, './sbtest/sbtest1.ibd']]);
  t.match(events[1]!.text, /^2026-11-30T14:31:51\.045719Z 1 \[ERROR\]/);
  t.same(logSegments(' len 16384; hex 0123abcd; asc ...'), [], 'a dump alone is dropped');
  t.same(classifyErrorLog("2026-11-30T14:31:51.049582Z 1 [ERROR] [MY-015090] [InnoDB] [FATAL] Tablespace '4' mentioned in the redo log is corrupted in a way it is unrecoverable by double-write buffer, so further redo log recovery is not possible!")
    .map((e) => [e.kind, e.space, e.page]), [['corruption', 4, undefined]]);
});
