/** The signatures of the written-up findings (rig/findings/catalog.ts): each matches its case and no neighbour. */
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DISK, DEFAULT_LOAD, DEFAULT_SERVER } from '../../rig/defaults.js';
import { FINDINGS } from '../../rig/findings/catalog.js';
import { FINDING_IDS } from '../../rig/results/finding-ids.js';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import type { CycleRecord, ScenarioSettings, TornPage } from '../../rig/results/types.js';
import { cycleRecord, tornPage } from '../fixtures/cycle-record.js';
import { shippedProfile } from '../../faults/device-profile.js';

const settings = (server: Partial<ScenarioSettings['server']>, disk: Partial<ScenarioSettings['disk']> = {}): ScenarioSettings => ({
  name: 's', runtime: 'local', server: { ...DEFAULT_SERVER, ...server }, disk: { ...DEFAULT_DISK, ...disk }, load: DEFAULT_LOAD, expect: 'recovers',
});
const planned = { id: 's-1', scenario: 's', cycle: 1, seed: 1 };

t.test('every finding has its write-up in docs/findings', async (t) => {
  for (const id of FINDING_IDS) t.ok(existsSync(join(PACKAGE_ROOT, FINDINGS[id].doc)), `${id}: ${FINDINGS[id].doc}`);
});

t.test('o-direct-no-fsync: doublewrite on, O_DIRECT_NO_FSYNC and an in-use torn page with no accepted copy', async (t) => {
  const m = FINDINGS['o-direct-no-fsync'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' });
  const noCopy = cycleRecord(planned, { ...base, server: { ...base.server, doublewrite: false } }, 'detected', 2);
  noCopy.settings = base; // torn pages built without a copy
  t.notOk(m(noCopy), 'no copy, but none was seen in flight before the home write');
  noCopy.tornPagesBefore[0]!.doublewrite.overwritten = [{ seq: 10, fate: 'landed', afterHomeWrite: false }];
  t.notOk(m(noCopy), 'its copy was overwritten before its home write: no reused slot');
  noCopy.tornPagesBefore[0]!.doublewrite.overwritten = [{ seq: 10, fate: 'torn', afterHomeWrite: true }];
  t.ok(m(noCopy), 'a later batch overwrote its copy while its home write was unflushed');
  delete noCopy.tornPagesBefore[0]!.doublewrite.overwritten;
  noCopy.tornPagesBefore[0]!.doublewrite.inFlight = [{ seq: 10, fate: 'dropped', beforeHomeWrite: true }];
  t.ok(m(noCopy));
  t.notOk(m(cycleRecord(planned, base, 'detected', 2)), 'every torn page had an accepted copy');
  const freed: CycleRecord = { ...noCopy, tornPagesBefore: noCopy.tornPagesBefore.map((p) => ({ ...p, freedAfter: true })) };
  t.notOk(m(freed), 'freed pages hold no data');
  t.notOk(m({ ...noCopy, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT' }) }), 'another flush method');
  const essd = shippedProfile('essd');
  t.notOk(m({ ...noCopy, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' }, { profile: essd.name, model: essd.device }) }),
    'a durable cache: a completed copy is durable, so the same break is no known finding');
});

t.test('mysql-o-direct-dblwr: MySQL, doublewrite on, O_DIRECT and an in-use torn page lost with its copy in flight', async (t) => {
  const m = FINDINGS['mysql-o-direct-dblwr'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT' });
  const lost = cycleRecord(planned, { ...base, server: { ...base.server, doublewrite: false } }, 'detected', 2);
  lost.settings = base;
  lost.tornPagesBefore[0]!.doublewrite.inFlight = [{ seq: 5110, fate: 'dropped', beforeHomeWrite: true }];
  t.notOk(m(lost), 'a server not known to be MySQL');
  lost.server = { version: 'mysqld 9.7.4-2', innodb: [] };
  t.ok(m(lost));
  t.notOk(FINDINGS['o-direct-no-fsync'].matches({ ...lost, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' }) }), "MariaDB's finding is MariaDB's");
  t.ok(m({ ...lost, settings: settings({ doublewrite: 'detect-and-recover', flushMethod: 'O_DIRECT_NO_FSYNC' }) }));
  t.notOk(m({ ...lost, settings: settings({ doublewrite: true, flushMethod: 'fsync' }) }), 'fsync flushes the doublewrite files first');
  t.notOk(m({ ...lost, server: { version: 'mariadbd 10.11.19-MariaDB', innodb: [] } }), 'not MySQL');
  t.notOk(m({ ...lost, tornPagesBefore: lost.tornPagesBefore.map((p) => ({ ...p, doublewrite: { ...p.doublewrite, inFlight: [] } })) }), 'no copy in flight');
  const nvme = shippedProfile('nvme');
  t.notOk(m({ ...lost, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT' }, { profile: nvme.name, model: nvme.device }) }), 'a durable cache');
});

t.test('unaligned-16k: doublewrite off, a page-sized atomic unit, torn pages and page writes that straddled it', async (t) => {
  const m = FINDINGS['unaligned-16k'].matches;
  const s = settings({ doublewrite: false }, { atomicUnit: 16384 });
  const stats = (straddling: number) => ({ reads: 0, writes: 10, flushes: 1, bytesWritten: 0, pageWritesStraddling: straddling });
  const cut = (straddling: number) => ({ reason: 'armed', atMs: 1000, pending: 10, pendingPageWrites: 10, stats: stats(straddling) }) as unknown as CycleRecord['cut'];
  t.ok(m(cycleRecord(planned, s, 'detected', 3, { cut: cut(4) })));
  t.notOk(m(cycleRecord(planned, s, 'detected', 3, { cut: cut(0) })), 'no straddle: something else tore');
  t.notOk(m(cycleRecord(planned, s, 'no-torn', 0, { cut: cut(4) })), 'nothing torn');
  t.notOk(m(cycleRecord(planned, settings({ doublewrite: false }, { atomicUnit: 4096 }), 'detected', 3, { cut: cut(4) })), 'a 4k device tears anyway');
});

t.test('page0-not-restored: a torn page 0 carrying the finding', async (t) => {
  const m = FINDINGS['page0-not-restored'].matches;
  const r = cycleRecord(planned, settings({ doublewrite: true }), 'reported-corruption', 1);
  t.notOk(m(r));
  r.tornPagesBefore[0] = { ...r.tornPagesBefore[0]!, page: 0, page0: { path: 'header', headerSpaceId: 5, firstPages: [], serverLog: [], finding: 'not restored' } };
  t.ok(m(r));
});

t.test('par-not-synced: a table the server cannot read for its .par file, in the checks or the invariants', async (t) => {
  const m = FINDINGS['par-not-synced'].matches;
  const s = settings({ doublewrite: true });
  t.ok(m(cycleRecord(planned, s, 'silent-corruption', 3, { checkTable: { tables: 10, failed: ['sbtest.parts_c1: Error: Failed to read from the .par file; error: Corrupt'] } })));
  t.ok(m(cycleRecord(planned, s, 'silent-corruption', 3, { invariants: { checked: true, violations: ['sbtest.parts_c2: the server could not read it: Failed to read from the .par file'] } })));
  t.notOk(m(cycleRecord(planned, s, 'reported-corruption', 3, { checkTable: { tables: 10, failed: ['sbtest.sbtest3: Error: Table is corrupted'] } })));
});

t.test('fsync-checkpoint-race: the write-order check saw a pending version the durable checkpoint covers', async (t) => {
  const m = FINDINGS['fsync-checkpoint-race'].matches;
  const s = settings({ doublewrite: true, flushMethod: 'fsync' });
  const order = (violationCount: number) => ({ checkpointLsn: 500, pagesChecked: 3, pendingVersions: 3, violationCount, violations: [] });
  t.ok(m(cycleRecord(planned, s, 'detected', 5, { writeOrder: order(6) })));
  t.notOk(m(cycleRecord(planned, s, 'detected', 5, { writeOrder: order(0) })));
  t.notOk(m(cycleRecord(planned, s, 'detected', 5)), 'no check recorded');
});

t.test("mysql-trx-sys-page: MySQL did not start, ibdata1's page 5 torn in use with a valid copy in a .dblwr file", async (t) => {
  const m = FINDINGS['mysql-trx-sys-page'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT' });
  const copy = { source: './#ib_16384_0.dblwr', slot: 38, lsn: 2000, valid: true, accepted: false, why: 'read at startup first' };
  const trxSys = { ...tornPage(5), file: './ibdata1', space: 0, doublewrite: { checkpointLsn: 900, copies: [copy], restorable: false, why: 'read at startup first' } };
  const r = cycleRecord(planned, base, 'detected', 2, { server: { version: 'mysqld 9.7.4-2', innodb: [] } });
  t.notOk(m(r), 'no torn TRX_SYS page');
  r.tornPagesBefore.push(trxSys);
  t.ok(m(r));
  t.notOk(m({ ...r, serverStarted: true }), 'the server started');
  t.notOk(m({ ...r, server: { version: 'mariadbd 10.11.19-MariaDB', innodb: [] } }), 'not MySQL');
  t.notOk(m({ ...r, settings: settings({ doublewrite: false }) }), 'doublewrite off: nothing to restore from');
  t.notOk(m({ ...r, tornPagesBefore: [{ ...trxSys, doublewrite: { ...trxSys.doublewrite, copies: [{ ...copy, valid: false }] } }] }), 'its copy is torn too');
  t.notOk(m({ ...r, tornPagesBefore: [{ ...trxSys, page: 6 }] }), 'another page of ibdata1');
  t.notOk(m({ ...r, tornPagesBefore: [{ ...trxSys, freedBefore: true }] }), 'a freed page');
});

t.test('mysql-page0-survey: MySQL did not start, and looked for a torn page 0 it could restore under another space id', async (t) => {
  const m = FINDINGS['mysql-page0-survey'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT' });
  const copy = { source: './#ib_16384_0.dblwr', slot: 5, lsn: 2000, valid: true, accepted: true, why: 'the copy with the largest LSN' };
  const notFound = "[ERROR] [MY-012237] [InnoDB] Corrupted page [page id: space=68085760, page number=0] of datafile './sbtest/rig_history.ibd' could not be found in the doublewrite buffer. (x179)";
  const survey = { analyzed: 20, valid: 14, chosen: 3, matched: 14 };
  const page0 = { path: 'survey' as const, headerSpaceId: 3, firstPages: [], survey, serverLog: [notFound], finding: null };
  const torn = { ...tornPage(0), file: './sbtest/rig_history.ibd', space: 3, page0, doublewrite: { checkpointLsn: 900, copies: [copy], restorable: true, why: 'restorable' } };
  const r = cycleRecord(planned, base, 'detected', 1, { server: { version: 'mysqld 9.7.4-2', innodb: [] }, tornPagesBefore: [torn] });
  t.ok(m(r));
  t.notOk(m({ ...r, serverStarted: true }), 'the server started');
  t.notOk(m({ ...r, server: { version: 'mariadbd 10.11.19-MariaDB', innodb: [] } }), 'not MySQL');
  const lookedUp = (line: string) => ({ ...r, tornPagesBefore: [{ ...torn, page0: { ...page0, serverLog: [line] } }] });
  t.notOk(m(lookedUp(notFound.replace('space=68085760', 'space=3'))), 'looked up under its own space id: not this finding');
  t.notOk(m(lookedUp(notFound.replace('rig_history', 'sbtest1'))), 'another file');
  t.notOk(m(lookedUp('[ERROR] [MY-012224] [InnoDB] Checksum mismatch in datafile: ./sbtest/rig_history.ibd')), 'no failed lookup logged');
  t.notOk(m({ ...r, tornPagesBefore: [{ ...torn, doublewrite: { ...torn.doublewrite, restorable: false } }] }), 'no copy to restore from');
  t.notOk(m({ ...r, tornPagesBefore: [{ ...torn, page: 4 }] }), 'not page 0');
});

t.test('mysql-stale-dblwr-copy: MySQL wrote a copy older than the checkpoint over a torn page with a newer copy, then broke on it', async (t) => {
  const m = FINDINGS['mysql-stale-dblwr-copy'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT' });
  const old = { source: './#ib_16384_0.dblwr', slot: 34, lsn: 800, valid: true, accepted: true, why: 'the first copy recovery meets' };
  const newer = { source: './#ib_16384_1.dblwr', slot: 204, lsn: 1500, valid: true, accepted: false, why: 'never looked at' };
  const torn = { ...tornPage(39), space: 7, durableLsn: 1200, newestLsn: 1600, doublewrite: { checkpointLsn: 900, copies: [old, newer], restorable: true, why: 'restorable' } };
  const restore = { line: 40, kind: 'doublewrite-restore' as const, text: 'Recovered page [page id: space=7, page number=39]', space: 7, page: 39 };
  const named = { line: 60, kind: 'error' as const, text: 'Probable data corruption on page 39', page: 39 };
  const abort = { line: 61, kind: 'abort' as const, text: 'Assertion failure: page0page.cc:145' };
  const refused = cycleRecord(planned, base, 'detected', 1, { server: { version: 'mysqld 9.7.4-2', innodb: [] }, tornPagesBefore: [torn] });
  refused.errorLog = { excerpt: '', events: [restore, named, abort] };
  t.ok(m(refused), 'restored from the stale copy, then an error naming the page');
  t.ok(m({ ...refused, errorLog: { excerpt: '', events: [restore, { ...abort, line: 70 }] } }), 'then an assertion that names no page');
  t.notOk(m({ ...refused, errorLog: { excerpt: '', events: [named, abort] } }), 'the server never restored it');
  t.notOk(m({ ...refused, errorLog: { excerpt: '', events: [{ ...abort, line: 10 }, restore] } }), 'the abort came before the restore');
  const other = { ...tornPage(50), space: 7 }; // in use, no copy its rules accept
  t.notOk(m({ ...refused, tornPagesBefore: [torn, other] }), 'another torn page in use had no copy: that explains a refusal as well');
  const withCopies = (copies: typeof torn.doublewrite.copies, page = torn) => ({ ...refused, tornPagesBefore: [{ ...page, doublewrite: { ...page.doublewrite, copies } }] });
  t.notOk(m(withCopies([{ ...old, lsn: 950 }, newer])), 'the copy it wrote is not older than the checkpoint');
  t.notOk(m(withCopies([old, { ...newer, valid: false }])), 'no newer valid copy');
  t.notOk(m(withCopies([old, newer], { ...torn, durableLsn: 700 })), 'the durable page was no newer than the copy');
  t.notOk(m({ ...refused, tornPagesBefore: [{ ...torn, freedBefore: true }] }), 'a freed page');
  t.notOk(m({ ...refused, server: { version: 'mariadbd 10.11.19-MariaDB', innodb: [] } }), 'not MySQL (MariaDB weighs copies against the checkpoint)');
  const started = { ...refused, serverStarted: true, verdict: 'silent-corruption' as const, tornPagesBefore: [{ ...torn, validAfter: true, currentAfter: false }] };
  t.ok(m(started), 'it started, and the page came back older than its newest write');
  t.notOk(m({ ...started, tornPagesBefore: [{ ...torn, validAfter: true, currentAfter: true }] }), 'it started, and redo brought the page forward');
});

t.test('create-then-rename: MariaDB refused for want of a FILE_* record for a tablespace its log creates, then renames', async (t) => {
  const m = FINDINGS['create-then-rename'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT' });
  const line = '[ERROR] InnoDB: Missing FILE_CREATE, FILE_DELETE or FILE_MODIFY before FILE_CHECKPOINT for tablespace 92';
  const create = { lsn: 100, op: 'create' as const, space: 92, name: './sbtest/parts_c4#P#p11.ibd' };
  const rename = { lsn: 200, op: 'rename' as const, space: 92, name: './sbtest/parts_c4#P#p11.ibd', newName: './sbtest/#sql-ib105.ibd' };
  const r = cycleRecord(planned, base, 'detected', 1, { server: { version: 'mariadbd 10.11.19-MariaDB', innodb: [] } });
  r.errorLog = { excerpt: '', events: [{ line: 12, kind: 'error', text: line }] };
  r.redoFileOps = { from: 50, to: 300, ops: [create, rename] };
  t.ok(m(r));
  t.notOk(m({ ...r, redoFileOps: { ...r.redoFileOps, ops: [rename, { ...create, lsn: 250 }] } }), 'renamed before it was created: another story');
  t.notOk(m({ ...r, redoFileOps: { ...r.redoFileOps, ops: [create] } }), 'created, never renamed');
  t.notOk(m({ ...r, redoFileOps: { ...r.redoFileOps, ops: [create, { ...rename, space: 93 }] } }), 'another tablespace renamed');
  t.notOk(m({ ...r, errorLog: { excerpt: '', events: [{ line: 12, kind: 'error', text: line.replace('92', '91') }] } }), 'the server named another tablespace');
  t.notOk(m({ ...r, errorLog: { excerpt: '', events: [] } }), 'no such refusal logged');
  const { redoFileOps: _, ...noOps } = r;
  t.notOk(m(noOps as CycleRecord), 'no file operations read (not a MariaDB 10.8+ log)');
  t.notOk(m({ ...r, serverStarted: true }), 'the server started');
  t.notOk(m({ ...r, server: { version: 'mysqld 9.7.4-2', innodb: [] } }), 'not MariaDB');
});

t.test('dblwr-unwritten-extent: O_DIRECT_NO_FSYNC and an in-use torn page whose only copy lies in an unwritten extent', async (t) => {
  const m = FINDINGS['dblwr-unwritten-extent'].matches;
  const base = settings({ doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' });
  // as in the volatile cache's refusal that explained it: space 8 page 95, its copy at ibdata1
  // page 114 (LSN 12240902) under an extent the crash image marks unwritten, checkpoint 10710455
  const hidden = { source: './ibdata1', slot: 114, lsn: 12240902, valid: true, accepted: true, why: 'valid, LSN 12240902 >= checkpoint 10710455' };
  const torn: TornPage = { ...tornPage(95), space: 8 };
  const lost = (unwritten: NonNullable<TornPage['doublewrite']['unwritten']>, page: TornPage = torn): CycleRecord =>
    ({ ...cycleRecord(planned, base, 'detected', 0), tornPagesBefore: [{ ...page, doublewrite: { ...page.doublewrite, unwritten } }] });
  const r = lost({ copies: [hidden], wouldRestore: true });
  t.ok(m(r));
  t.notOk(m(cycleRecord(planned, base, 'detected', 1)), 'no copy in an unwritten extent');
  t.notOk(m(lost({ copies: [{ ...hidden, lsn: 900, accepted: false }], wouldRestore: false })), 'the hidden copy would not have restored it either');
  t.notOk(m(lost({ copies: [hidden], wouldRestore: true }, { ...torn, doublewrite: { ...torn.doublewrite, restorable: true } })), 'another copy restored it');
  t.notOk(m(lost({ copies: [hidden], wouldRestore: true }, { ...torn, freedBefore: true })), 'a freed page holds no data');
  t.notOk(m({ ...r, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT' }) }), 'O_DIRECT syncs ibdata1 after each batch');
  t.notOk(m({ ...r, settings: settings({ doublewrite: false, flushMethod: 'O_DIRECT_NO_FSYNC' }) }), 'doublewrite off');
  t.notOk(m({ ...r, server: { version: 'mysqld 9.7.4-2', innodb: [] } }), 'not MariaDB');
  const essd = shippedProfile('essd');
  t.ok(m({ ...r, settings: settings({ doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' }, { profile: essd.name, model: essd.device }) }),
    'a durable cache keeps the bytes, not the filesystem journal that makes them readable');
});
