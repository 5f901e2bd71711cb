import t from 'tap';
import { judgeCycle, type JudgeInput } from '../../rig/cycle/judge.js';
import type { TornPage } from '../../rig/results/types.js';

const page = (over: Partial<TornPage> = {}): TornPage => ({
  file: './db/t.ibd', space: 5, page: 7, unitsNew: [true, false, false, false], writes: 1, durableLsn: 100, newestLsn: 200,
  invalidBefore: 'checksum-mismatch', validAfter: true, lsnAfter: 250, currentAfter: true, attribution: 'doublewrite',
  doublewrite: { checkpointLsn: 90, copies: [], restorable: true, why: 'restorable' }, ...over,
});
const base: JudgeInput = {
  torn: [],
  serverStarted: true,
  loggedCorruption: false,
  ledger: { checked: true, acked: 10, missing: 0 },
  checkTable: { tables: 4, failed: [] },
  invariants: { checked: true, violations: [] },
  pagesAfter: [],
};

const cases: [string, Partial<JudgeInput>, string][] = [
  ['nothing torn, recovered', {}, 'no-torn'],
  ['torn and restored', { torn: [page()] }, 'restored'],
  ['a data invariant broken', { invariants: { checked: true, violations: ['sbtest.sbtest1: 9 rows with ids 1..10'] } }, 'silent-corruption'],
  ['torn, valid again but older than its newest write', { torn: [page({ lsnAfter: 150, currentAfter: false })] }, 'silent-corruption'],
  ['torn, not found by the scan after recovery', { torn: [page({ validAfter: null, currentAfter: null, attribution: null })] }, 'silent-corruption'],
  ['torn, older but freed by the tablespace', { torn: [page({ currentAfter: false, freedAfter: true })] }, 'restored'],
  ['server refused', { torn: [page({ validAfter: null, attribution: null })], serverStarted: false, loggedCorruption: true }, 'detected'],
  ['refused without a torn page is still detected', { serverStarted: false }, 'detected'],
  ['a commit lost', { torn: [page()], ledger: { checked: true, acked: 10, missing: 2 } }, 'lost-commit'],
  ['a torn page survived', { torn: [page({ validAfter: false, attribution: null })] }, 'silent-corruption'],
  ['CHECK TABLE failed', { checkTable: { tables: 4, failed: ['db.t: corrupt'] } }, 'silent-corruption'],
  ['an invalid page in use after recovery', { pagesAfter: [{ file: './ibdata1', space: 0, page: 9, reason: 'x' }] }, 'silent-corruption'],
  ['a torn page left in freed space', { torn: [page({ validAfter: false, attribution: null, freedAfter: true })], pagesAfter: [{ file: './db/t.ibd', space: 5, page: 7, reason: 'x', free: true }] }, 'restored'],
];

for (const [name, over, verdict] of cases) {
  t.test(name, async (t) => {
    const j = judgeCycle({ ...base, ...over });
    t.equal(j.verdict, verdict, j.reason);
    t.match(j.reason, /torn/, 'the reason says what tore');
  });
}

t.test('the reason of a restore names the attribution and freed pages', async (t) => {
  const j = judgeCycle({ ...base, torn: [page(), page({ page: 8, attribution: 'redo' }), page({ page: 9, validAfter: false, attribution: null, freedAfter: true })] });
  t.match(j.reason, /doublewrite 1, redo 1, unexplained 0/);
  t.match(j.reason, /1 torn page left invalid in space the tablespace has freed/);
});
