/**
 * What a bundle tells reproduce.sh (rig/bundle/expected-outcome.ts) and the options it passes the
 * server (rig/bundle/write-bundle.ts portableOptions): the failure's log line without the parts
 * that differ run to run (as a literal pattern the shell's grep -E matches), the image a Docker
 * user runs, the ledger, values the shell reads back as written, and the rig's options without
 * the paths the script sets itself.
 */
import t from 'tap';
import { execa } from 'execa';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedEnv, failureLine, imageFor, literalPattern, stalePages } from '../../rig/bundle/expected-outcome.js';
import { portableOptions, REPRODUCE_SCRIPT } from '../../rig/bundle/write-bundle.js';
import type { LoadResult } from '../../rig/load/index.js';
import type { CycleRecord } from '../../rig/results/types.js';
import { localScenario } from '../fixtures/local-scenario.js';
import { cycleRecord } from '../fixtures/cycle-record.js';

const settings = localScenario('page0', { expect: 'recovers' });
const MARIADB_LINE = "2026-12-01 21:01:02 0 [ERROR] InnoDB: The first page of file ./sbtest/sbtest3.ibd is corrupted (it's \"odd\")";
const record = (verdict: CycleRecord['verdict'], extra: Partial<CycleRecord> = {}): CycleRecord =>
  cycleRecord({ id: 'c', scenario: 'page0', cycle: 1, seed: 1 }, settings, verdict, 1, {
    server: { version: 'mariadbd 10.11.19-MariaDB-0+deb12u1', innodb: [] },
    errorLog: { excerpt: '', events: [{ line: 7, kind: 'recovery-start', text: 'start' }, { line: 9, kind: 'corruption', text: MARIADB_LINE, page: 0, file: './sbtest/sbtest3.ibd' }] },
    ...extra,
  });

t.test("the failure's log line from after its level, for MariaDB and MySQL", async (t) => {
  t.equal(failureLine(record('reported-corruption')), "InnoDB: The first page of file ./sbtest/sbtest3.ibd is corrupted (it's \"odd\")");
  const mysql = record('detected', { errorLog: { excerpt: '', events: [{ line: 3, kind: 'corruption', text: '2026-12-01T21:01:02.123456Z 1 [ERROR] [MY-011906] [InnoDB] Database page corruption on disk or a failed file read of page [page id: space=0, page number=5].' }] } });
  t.equal(failureLine(mysql), '[MY-011906] [InnoDB] Database page corruption on disk or a failed file read of page [page id: space=0, page number=5].');
  t.equal(failureLine(record('hung', { errorLog: { excerpt: '', events: [] } })), '');
  const refused = record('refused', { errorLog: { excerpt: '', events: [
    { line: 3, kind: 'error', text: '2026-12-01 23:34:12 0 [ERROR] InnoDB: Missing FILE_CREATE, FILE_DELETE or FILE_MODIFY before FILE_CHECKPOINT for tablespace 62' },
    { line: 4, kind: 'abort', text: '2026-12-01 23:34:12 0 [ERROR] InnoDB: Plugin initialization aborted with error Data structure corruption' },
  ] } });
  t.equal(failureLine(refused), 'InnoDB: Missing FILE_CREATE, FILE_DELETE or FILE_MODIFY before FILE_CHECKPOINT for tablespace 62', 'the cause, not the abort after it');
});

t.test('the literal pattern matches the line with grep -E, and nothing looser', async (t) => {
  const line = failureLine(record('reported-corruption'));
  const pattern = literalPattern(line);
  t.equal((await execa('grep', ['-Ec', pattern], { input: `x\n${MARIADB_LINE}\ny` })).stdout, '1');
  t.equal((await execa('grep', ['-Ec', pattern], { input: MARIADB_LINE.replace('sbtest3.ibd', 'sbtest3Xibd'), reject: false })).stdout, '0', 'a dot is a dot');
});

t.test('the image to run: the cycle\'s own, or the offline image of the host\'s MariaDB release', async (t) => {
  t.equal(imageFor(record('detected')), 'powercut-rig/mariadb-offline:10.11');
  t.equal(imageFor({ ...record('detected'), settings: { ...settings, runtime: 'docker', image: 'mariadb:11.4' } }), 'mariadb:11.4');
  t.equal(imageFor({ ...record('detected'), server: { version: 'mysqld 9.7.4', innodb: [] } }), '');
});

t.test('expected.env reads back in the shell as written', async (t) => {
  const load = { ledger: true, acked: new Map([[1, 40], [2, 38]]) } as unknown as LoadResult;
  const env = expectedEnv({ ...record('reported-corruption'), reason: "page 0 of ./sbtest/sbtest3.ibd: torn; it's not restored" }, load);
  const shown = await execa('sh', ['-c', `${env}\nprintf '%s|%s|%s|%s|%s' "$EXPECT_OUTCOME" "$EXPECT_SERVER" "$LEDGER" "$EXPECT_REASON" "$EXPECT_LOG_TEXT"`]);
  t.equal(shown.stdout, `corrupts|mariadbd|1:40 2:38|page 0 of ./sbtest/sbtest3.ibd: torn; it's not restored|InnoDB: The first page of file ./sbtest/sbtest3.ibd is corrupted (it's "odd")`);
  t.throws(() => expectedEnv(record('restored'), null), /restored is not a failure/);
});

t.test("the server's options as the rig passes them, without what the script sets", async (t) => {
  const options = portableOptions(record('detected'));
  t.ok(options.includes('--innodb-doublewrite=ON'));
  t.ok(options.includes('--skip-networking'));
  t.notOk(options.some((o) => /^--(no-defaults|datadir|socket|pid-file|tmpdir|user|log-error)\b/.test(o)), options.join(' '));
});

/** A torn page the rig saw brought back older than its newest version (docs/findings/mysql-stale-dblwr-copy.md). */
const staleRecord = (): CycleRecord => {
  const r = record('silent-corruption', { errorLog: { excerpt: '', events: [] } });
  const page = { file: './undo_002', space: 4294967278, page: 3, unitsNew: [true, true, true, false], writes: 1, durableLsn: 36520579, newestLsn: 37022671, invalidBefore: 'lsn-mismatch', validAfter: true, lsnAfter: 36520579, currentAfter: false, attribution: 'doublewrite' };
  const current = { ...page, file: './sbtest/sbtest1.ibd', page: 9, lsnAfter: 37022671, currentAfter: true };
  return { ...r, tornPagesBefore: [page, current] as unknown as CycleRecord['tornPagesBefore'] };
};

t.test('a silent corruption: the pages brought back old, with the LSN their newest version had', async (t) => {
  t.equal(stalePages(staleRecord()), 'undo_002:3:37022671', 'the current page is not named; the file is relative to the datadir');
  t.equal(stalePages(record('reported-corruption')), '');
  const shown = await execa('sh', ['-c', `${expectedEnv(staleRecord(), null)}\nprintf '%s|%s|%s' "$EXPECT_OUTCOME" "$EXPECT_PAGE_SIZE" "$EXPECT_STALE_PAGES"`]);
  t.equal(shown.stdout, 'corrupts|16384|undo_002:3:37022671');
});

/**
 * reproduce.sh's own logic on a silent corruption, with a stand-in for the server that comes up,
 * answers no table and shuts down cleanly (the server's side is the docker and shrink tests'):
 * the page's LSN, read from the datadir copy after the run, below its newest version's is the
 * failure again (exit 1); at or above it, a clean recovery (exit 0).
 */
t.test("reproduce.sh reads a stale page's LSN after a clean run: older is reproduced, newer is recovered", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-reproduce-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const server = join(dir, 'server');
  writeFileSync(server, [
    '#!/bin/sh',
    'for a; do case $a in --log-error=*) log=${a#--log-error=};; esac; done',
    'trap \'echo "Shutdown complete" >> "$log"; exit 0\' TERM',
    'echo "ready for connections" >> "$log"',
    'while :; do sleep 0.1; done',
  ].join('\n') + '\n');
  writeFileSync(join(dir, 'client'), '#!/bin/sh\nexit 0\n');
  chmodSync(server, 0o755);
  chmodSync(join(dir, 'client'), 0o755);
  const bundle = join(dir, 'bundle');
  mkdirSync(join(bundle, 'datadir'), { recursive: true });
  copyFileSync(REPRODUCE_SCRIPT, join(bundle, 'reproduce.sh'));
  writeFileSync(join(bundle, 'expected.env'), expectedEnv(staleRecord(), null));
  writeFileSync(join(bundle, 'server-options.txt'), '');
  const run = async (lsn: bigint) => {
    const file = Buffer.alloc(4 * 16384);
    file.writeBigUInt64BE(lsn, 3 * 16384 + 16);
    writeFileSync(join(bundle, 'datadir', 'undo_002'), file);
    return execa('sh', ['./reproduce.sh'], { cwd: bundle, env: { PATH: '/usr/bin:/bin', MYSQLD: server, MYSQL_CLIENT: join(dir, 'client') }, extendEnv: false, reject: false });
  };
  const old = await run(36520579n);
  t.equal(old.exitCode, 1, old.stdout);
  t.match(old.stdout, /this run saw: +corrupts \(torn pages brought back old: undo_002 page 3: LSN 36520579, older than the 37022671 written before the cut;\)/);
  t.match(old.stdout, /REPRODUCED/);
  const current = await run(37022700n);
  t.equal(current.exitCode, 0, current.stdout);
  t.match(current.stdout, /recovered cleanly/);
});

/**
 * reproduce.sh on a hang: it says how long it waits before the wait begins (a hang would otherwise
 * be that long of silence), and a stand-in server that never answers is the failure again.
 */
t.test('reproduce.sh on a hang: says how long it waits, then a server that never answers reproduces it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-reproduce-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const server = join(dir, 'server');
  writeFileSync(server, '#!/bin/sh\nwhile :; do sleep 0.1; done\n');
  chmodSync(server, 0o755);
  const bundle = join(dir, 'bundle');
  mkdirSync(join(bundle, 'datadir'), { recursive: true });
  copyFileSync(REPRODUCE_SCRIPT, join(bundle, 'reproduce.sh'));
  writeFileSync(join(bundle, 'expected.env'), expectedEnv(record('hung', { errorLog: { excerpt: '', events: [] } }), null));
  writeFileSync(join(bundle, 'server-options.txt'), '');
  const run = await execa('sh', ['./reproduce.sh'], { cwd: bundle, env: { PATH: '/usr/bin:/bin', MYSQLD: server, START_SECONDS: '2' }, extendEnv: false, reject: false });
  t.match(run.stdout, /reproduce.sh: the rig saw this server hang: waiting up to 2 s for it to answer \(START_SECONDS=N to change\)\n/);
  t.match(run.stdout, /this run saw: +hangs/);
  t.equal(run.exitCode, 1, run.stdout);
  t.match(run.stdout, /REPRODUCED/);
});
