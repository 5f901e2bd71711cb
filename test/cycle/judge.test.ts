import t from 'tap';
import { judgeCycle, type JudgeInput } from '../../rig/cycle/judge.js';
import type { RecoveryRun, TornPage } from '../../rig/results/types.js';

const page = (over: Partial<TornPage> = {}): TornPage => ({
  file: './db/t.ibd', space: 5, page: 7, unitsNew: [true, false, false, false], writes: 1, durableLsn: 100, newestLsn: 200,
  invalidBefore: 'checksum-mismatch', validAfter: true, lsnAfter: 250, currentAfter: true, attribution: 'doublewrite',
  doublewrite: { checkpointLsn: 90, copies: [], restorable: true, why: 'restorable' }, ...over,
});
const bounds = { startMs: 120_000, checksMs: 600_000 };
const clean: RecoveryRun = { bounds, readyMs: 2000, endedIn: 'shutdown', timedOut: null, exit: { exitCode: 0, signal: null }, shutdown: 'clean' };
const run = (over: Partial<RecoveryRun>): RecoveryRun => ({ ...clean, ...over });
const neverReady = (over: Partial<RecoveryRun>): RecoveryRun =>
  run({ readyMs: null, endedIn: 'start', shutdown: 'not-reached', exit: { exitCode: 1, signal: null }, ...over });
const diedInChecks = (signal: string): RecoveryRun =>
  run({ endedIn: 'checks', shutdown: 'not-reached', exit: { exitCode: null, signal }, checksError: 'Connection lost: The server closed the connection.' });
const base: JudgeInput = {
  torn: [],
  run: clean,
  loggedCorruption: false,
  ledger: { checked: true, acked: 10, missing: 0 },
  checkTable: { tables: 4, failed: [] },
  invariants: { checked: true, violations: [] },
  pagesAfter: [],
};
const stillTorn = page({ validAfter: false, attribution: null });
const invalidAfter = [{ file: './ibdata1', space: 0, page: 9, reason: 'x' }];

const cases: [string, Partial<JudgeInput>, string][] = [
  ['nothing torn, recovered', {}, 'no-torn'],
  ['torn and restored', { torn: [page()] }, 'restored'],
  ['a data invariant broken', { invariants: { checked: true, violations: ['sbtest.sbtest1: 9 rows with ids 1..10'] } }, 'silent-corruption'],
  ['torn, valid again but older than its newest write', { torn: [page({ lsnAfter: 150, currentAfter: false })] }, 'silent-corruption'],
  ['torn, not found by the scan after recovery', { torn: [page({ validAfter: null, currentAfter: null, attribution: null })] }, 'silent-corruption'],
  ['torn, older but freed by the tablespace', { torn: [page({ currentAfter: false, freedAfter: true })] }, 'restored'],
  ['a torn page left in freed space', { torn: [page({ validAfter: false, attribution: null, freedAfter: true })], pagesAfter: [{ file: './db/t.ibd', space: 5, page: 7, reason: 'x', free: true }] }, 'restored'],
  // never answered
  ['refused with torn pages and a corruption message', { torn: [page({ validAfter: null, attribution: null })], run: neverReady({}), loggedCorruption: true }, 'detected'],
  ['refused with torn pages, naming nothing', { torn: [page({ validAfter: null, attribution: null })], run: neverReady({}) }, 'detected'],
  ['refused naming corruption with nothing torn', { run: neverReady({}), loggedCorruption: true }, 'detected'],
  ['refused with nothing torn and nothing named', { run: neverReady({}) }, 'refused'],
  ['died of a signal before it answered', { torn: [page()], run: neverReady({ exit: { exitCode: null, signal: 'SIGABRT' } }), loggedCorruption: true }, 'crashed'],
  ['killed by a SIGKILL the rig did not send (OOM)', { run: neverReady({ exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'crashed'],
  // engine rocksdb: a refusal on the write-ahead log, told apart by the disk's record of the log's writes
  ['RocksDB refused on its log, a log write lost at the cut', { run: neverReady({}), wal: { logged: true, lost: true } }, 'wal-tail-refused'],
  ['RocksDB refused on its log with InnoDB pages torn (InnoDB had recovered)', { torn: [page({ validAfter: null, attribution: null })], run: neverReady({}), wal: { logged: true, lost: true } }, 'wal-tail-refused'],
  ['RocksDB refused on its log, every log write landed', { run: neverReady({}), wal: { logged: true, lost: false } }, 'detected'],
  ['RocksDB refused on its log and something else was called corrupt', { run: neverReady({}), loggedCorruption: true, wal: { logged: true, lost: true } }, 'detected'],
  ['a log write lost, the refusal names nothing', { run: neverReady({}), wal: { logged: false, lost: true } }, 'refused'],
  ['a log write lost, the server started with every commit', { wal: { logged: false, lost: true } }, 'no-torn'],
  ['a log write lost, then a commit missing', { ledger: { checked: true, acked: 10, missing: 1 }, wal: { logged: false, lost: true } }, 'lost-commit'],
  ['RocksDB named its log, then died of a signal', { run: neverReady({ exit: { exitCode: null, signal: 'SIGABRT' } }), wal: { logged: true, lost: true } }, 'crashed'],
  ['recovery past its bound', { run: neverReady({ timedOut: 'start', exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'hung'],
  ['recovery stalled before its bound', { run: neverReady({ timedOut: 'start', stalled: { afterMs: 1500, forMs: 15_200, cpuMs: 60 }, exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'hung'],
  // answered, then the data
  ['a commit lost', { torn: [page()], ledger: { checked: true, acked: 10, missing: 2 } }, 'lost-commit'],
  ['a commit lost, then a crash', { ledger: { checked: true, acked: 10, missing: 2 }, run: diedInChecks('SIGSEGV') }, 'lost-commit'],
  ['an acknowledged lifecycle step undone', { ledger: { checked: true, acked: 10, missing: 0, steps: { acked: 5, missing: 1, lost: ['sbtest.churn_c1_t1: holds "absent"'] } } }, 'lost-commit'],
  ['lifecycle steps all in effect', { torn: [page()], ledger: { checked: true, acked: 10, missing: 0, steps: { acked: 5, missing: 0, lost: [] } } }, 'restored'],
  ['a torn page survived', { torn: [stillTorn] }, 'silent-corruption'],
  ['CHECK TABLE failed', { checkTable: { tables: 4, failed: ['db.t: corrupt'] } }, 'silent-corruption'],
  ['an invalid page in use after recovery', { pagesAfter: invalidAfter }, 'silent-corruption'],
  ['the server could not read the ledger', { ledger: { checked: false, acked: 10, missing: 0, error: "Table 'rig.ledger' doesn't exist in engine" } }, 'silent-corruption'],
  ['CHECK TABLE failed and the log named corruption', { checkTable: { tables: 4, failed: ['db.t: corrupt'] }, loggedCorruption: true }, 'reported-corruption'],
  ['a torn page survived and the log named corruption', { torn: [stillTorn], loggedCorruption: true }, 'reported-corruption'],
  ['CHECK TABLE complained, then the server crashed', { checkTable: { tables: 4, failed: ['db.t: corrupt'] }, run: diedInChecks('SIGABRT') }, 'silent-corruption'],
  // answered, then the process
  ['killed (SIGKILL) during the checks', { torn: [page()], run: diedInChecks('SIGKILL') }, 'crashed'],
  ['segfault during the checks', { run: diedInChecks('SIGSEGV') }, 'crashed'],
  ['exited by itself during the checks', { run: run({ endedIn: 'checks', shutdown: 'not-reached', exit: { exitCode: 1, signal: null } }) }, 'crashed'],
  ['pages left invalid by a crash are not corruption', { torn: [stillTorn], pagesAfter: invalidAfter, run: diedInChecks('SIGSEGV') }, 'crashed'],
  ['checks past their bound', { run: run({ endedIn: 'checks', timedOut: 'checks', shutdown: 'not-reached', exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'hung'],
  ['killed during the shutdown', { torn: [page()], run: run({ shutdown: 'failed', exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'shutdown-crash'],
  ['shutdown ended with an exit code', { run: run({ shutdown: 'failed', exit: { exitCode: 1, signal: null } }) }, 'shutdown-crash'],
  ['shutdown past its bound', { run: run({ shutdown: 'failed', timedOut: 'shutdown', exit: { exitCode: null, signal: 'SIGKILL' } }) }, 'shutdown-crash'],
  ['pages left invalid by a failed shutdown are not corruption', { torn: [stillTorn], run: run({ shutdown: 'failed', exit: { exitCode: null, signal: 'SIGSEGV' } }) }, 'shutdown-crash'],
];

for (const [name, over, verdict] of cases) {
  t.test(name, async (t) => {
    const j = judgeCycle({ ...base, ...over });
    t.equal(j.verdict, verdict, j.reason);
    t.match(j.reason, /torn/, 'the reason says what tore');
  });
}

t.test('a refusal on the log says which: a torn tail, or a log the disk kept whole', async (t) => {
  t.match(judgeCycle({ ...base, run: neverReady({}), wal: { logged: true, lost: true } }).reason, /write-ahead log, whose tail a log write dropped or torn at the cut broke/);
  t.match(judgeCycle({ ...base, run: neverReady({}), wal: { logged: true, lost: false } }).reason, /every log write pending at the cut landed whole/);
});

t.test('the reason of a restore names the attribution and freed pages', async (t) => {
  const j = judgeCycle({ ...base, torn: [page(), page({ page: 8, attribution: 'redo' }), page({ page: 9, validAfter: false, attribution: null, freedAfter: true })] });
  t.match(j.reason, /doublewrite 1, redo 1, unexplained 0/);
  t.match(j.reason, /1 torn page left invalid in space the tablespace has freed/);
});

t.test('the reason of a process failure names how it ended', async (t) => {
  t.match(judgeCycle({ ...base, run: diedInChecks('SIGSEGV') }).reason, /signal SIGSEGV.*Connection lost/);
  t.match(judgeCycle({ ...base, run: neverReady({}) }).reason, /exit code 1/);
  t.match(judgeCycle({ ...base, run: neverReady({ timedOut: 'start' }) }).reason, /within 120 s/);
  const stalled = neverReady({ timedOut: 'start', stalled: { afterMs: 1540, forMs: 15_230, cpuMs: 60 } });
  t.match(judgeCycle({ ...base, run: stalled }).reason, /did not answer, from 1.5 s after it started it stalled: for 15.2 s it read and wrote nothing and its threads used 60 ms of CPU, and was killed$/);
  t.match(judgeCycle({ ...base, run: run({ shutdown: 'failed', exit: null }) }).reason, /an end the rig did not see/);
});

t.test('the reason names undone lifecycle steps, and says when every one held', async (t) => {
  const lost = judgeCycle({ ...base, ledger: { checked: true, acked: 10, missing: 2, steps: { acked: 5, missing: 3, lost: ['sbtest.parts_c1: holds "p0 empty; indexes k"'] } } });
  t.match(lost.reason, /2 acknowledged commits missing, 3 acknowledged lifecycle steps undone \(sbtest.parts_c1: holds "p0 empty; indexes k"\) after recovery/);
  const held = judgeCycle({ ...base, ledger: { checked: true, acked: 10, missing: 0, steps: { acked: 5, missing: 0, lost: [] } } });
  t.match(held.reason, /all 10 acknowledged commits present, all 5 acknowledged lifecycle steps in effect/);
});

t.test('an ordering violation at the device is named in the reason and changes no verdict', async (t) => {
  const writeOrder = { checkpointLsn: 500, pagesChecked: 3, pendingVersions: 3, violationCount: 2, violations: [] };
  for (const over of [{}, { torn: [page()] }, { run: neverReady({}), loggedCorruption: true }] as Partial<JudgeInput>[]) {
    const plain = judgeCycle({ ...base, ...over });
    const j = judgeCycle({ ...base, ...over, writeOrder });
    t.equal(j.verdict, plain.verdict);
    t.equal(j.reason, `${plain.reason}; ordering violation observed at the device: 2 pages had a pending version older than the durable checkpoint LSN 500`);
  }
  t.equal(judgeCycle({ ...base, writeOrder: { ...writeOrder, violationCount: 0 } }).reason, judgeCycle(base).reason);
});
