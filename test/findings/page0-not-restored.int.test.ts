/**
 * The page-0 finding (docs/findings/page0-not-restored.md), hunted and shown on every run: real
 * cycles with the quick campaign's doublewrite settings until one tears page 0 of an .ibd while an
 * accepted copy exists, then that crash image judged again three ways. As the cut left it, MariaDB
 * 10.11 leaves page 0 torn and the table unusable; with page 0 replaced by its doublewrite copy, or
 * zeroed (the server then finds the copy through pages 1-3), recovery is clean. If the server ever
 * restores the torn page itself, or the hunt never tears page 0, this test fails and the write-up
 * is out of date.
 */
import t from 'tap';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINDINGS } from '../../rig/findings/catalog.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { ScenarioSettings, TornPage } from '../../rig/results/types.js';
import { huntFinding } from '../fixtures/hunt-finding.js';
import { rejudge } from '../fixtures/rejudge.js';
import { localScenario } from '../fixtures/local-scenario.js';

const work = mkdtempSync(join(tmpdir(), 'rig-page0-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const local = createLocalRuntime();
const HUNT = 12;

const settings: ScenarioSettings = localScenario('page0', { server: { bufferPool: '64M' }, expect: 'recovers' });

const PS = settings.server.pageSize;

/** Writes `bytes` over page 0 of the file. */
function overwritePage0(datadir: string, file: string, bytes: Buffer): void {
  const fd = openSync(join(datadir, file), 'r+');
  try {
    writeSync(fd, bytes, 0, PS, 0);
  } finally {
    closeSync(fd);
  }
}

function readIbdataPage(datadir: string, page: number): Buffer {
  const buf = Buffer.alloc(PS);
  const fd = openSync(join(datadir, 'ibdata1'), 'r');
  try {
    readSync(fd, buf, 0, PS, page * PS);
  } finally {
    closeSync(fd);
  }
  return buf;
}

t.test('a torn page 0 with an accepted copy stays torn; its copy alone makes recovery clean', async (t) => {
  const { hit, seen } = await huntFinding('page0-not-restored', settings, local, work, HUNT);
  t.comment(`hunt: ${seen.join(', ')}`);
  if (!hit) return t.fail(`no cycle of ${HUNT} tore page 0 with an accepted copy left unused: the finding was not reproduced`);
  const { dir, record } = hit;
  // a cycle may tear page 0 of several files; every one the finding names is edited below
  const pages = record.tornPagesBefore.filter((p) => p.page0?.finding);
  const page = pages[0]!;

  t.test('as the cut left it: reported corruption, the finding in the record and the reason', async (t) => {
    t.equal(record.verdict, 'reported-corruption');
    t.ok(FINDINGS['page0-not-restored'].matches(record));
    t.ok(page.doublewrite.restorable);
    t.equal(page.validAfter, false);
    t.match(page.page0!.serverLog.join('\n'), new RegExp(`The first page of file ${page.file.replace(/[./]/g, '\\$&')} is corrupted`));
    t.match(record.reason, /yet the server did not restore it/);
    t.ok(record.checkTable.failed.length > 0, 'CHECK TABLE fails on the table');
  });

  const newestCopy = (p: TornPage) => p.doublewrite.copies.filter((c) => c.accepted).sort((a, b) => b.lsn - a.lsn)[0]!;
  t.same(pages.map((p) => newestCopy(p).source), pages.map(() => './ibdata1'), 'MariaDB keeps its copies in the system tablespace');

  t.test("with each such page 0 replaced by its doublewrite copy: every check passes", async (t) => {
    const { record: r } = await rejudge(dir, join(work, 'copy'), settings, local, {
      beforeScan: (datadir) => {
        for (const p of pages) overwritePage0(datadir, p.file, readIbdataPage(datadir, newestCopy(p).slot));
      },
    });
    t.same(r.checkTable.failed, [], 'CHECK TABLE passes');
    t.same(r.invariants.violations, [], 'the invariants hold');
    t.ok(r.serverStarted);
    // the edit contradicts the disk's record of those pages on purpose; the oracle says so
    t.equal(r.verdict, 'rig-error');
    t.match(r.reason, /torn by the disk's record but valid to the verifier: .*page 0.*\(the server's outcome would have been restored\)/);
  });

  t.test('with page 0 zeroed: the server finds the copy through pages 1-3 and recovery is clean', async (t) => {
    const { record: r } = await rejudge(dir, join(work, 'zero'), settings, local, {
      beforeScan: (datadir) => {
        for (const p of pages) overwritePage0(datadir, p.file, Buffer.alloc(PS));
      },
    });
    t.same(r.checkTable.failed, [], 'CHECK TABLE passes');
    t.same(r.invariants.violations, [], 'the invariants hold');
  });
});
