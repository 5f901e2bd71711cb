/**
 * What a bundle tells reproduce.sh (rig/bundle/expected-outcome.ts) and the options it passes the
 * server (rig/bundle/write-bundle.ts portableOptions): the failure's log line without the parts
 * that differ run to run (as a literal pattern the shell's grep -E matches), the image a Docker
 * user runs, the ledger, values the shell reads back as written, and the rig's options without
 * the paths the script sets itself.
 */
import t from 'tap';
import { execa } from 'execa';
import { expectedEnv, failureLine, imageFor, literalPattern } from '../../rig/bundle/expected-outcome.js';
import { portableOptions } from '../../rig/bundle/write-bundle.js';
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
