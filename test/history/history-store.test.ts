// Five nights filed in turn into a real SQLite store: after each, the history flags exactly what
// that night changed (the moved rate on night 3, the server change that stopped the finding on
// night 4, nothing on the others), and rig compare of the night with the one before agrees.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { compareRuns } from '../../rig/history/compare-runs.js';
import { HistoryStore } from '../../rig/history/history-store.js';
import { historyLines, historyView } from '../../rig/history/history-view.js';
import { runFigures } from '../../rig/history/run-figures.js';
import { fiveNights, quickRun } from '../fixtures/history/nightly-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-history-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const kinds = (changes: { kind: string; scenario: string }[]) => changes.map((c) => `${c.kind} ${c.scenario}`).sort();

t.test('five nights filed in turn: each flags what it changed, and rig compare agrees', async (t) => {
  const store = await HistoryStore.open(join(dir, 'five', 'history.sqlite'));
  t.teardown(() => store.close());
  const nights = fiveNights();
  const want = [[], [], ['rate-moved dw-on-4k-ext4'], ['finding-stopped dw-on-4k-ext4', 'rate-moved dw-on-4k-ext4'], []];
  for (const [i, night] of nights.entries()) {
    t.same(store.add(night, `/runs/${i + 1}`), { id: i + 1, added: true }, `night ${i + 1} filed`);
    const view = historyView(store.runs('quick'), 10);
    t.same(kinds(view.changes), want[i], `night ${i + 1}: ${want[i]!.join(', ') || 'nothing'} flagged`);
    if (i > 0) t.same(kinds(compareRuns(runFigures(nights[i - 1]!), runFigures(night)).changes), want[i], `night ${i + 1}: rig compare with night ${i} agrees`);
  }
  const view = historyView(store.runs('quick'), 10);
  t.same(kinds(view.standing), ['finding-stopped dw-on-4k-ext4', 'rate-moved dw-on-4k-ext4'], 'night 5 is night 4 again: what moved on night 4 stands, and is not flagged again');
  const s = view.scenarios.find((x) => x.scenario === 'dw-on-4k-ext4')!;
  t.same(s.servers, [{ version: 'mariadbd 10.11.19-MariaDB-0+deb12u1', runs: [1, 2, 3] }, { version: 'mariadbd 10.11.20-MariaDB-0+deb12u1', runs: [4, 5] }]);
  t.match(s.seen.find((x) => x.name === 'page0-not-restored'), {
    kind: 'finding', rate: { hits: 42, of: 150 }, first: { run: 1, startedAt: '2026-11-01T02:00:00.000Z' }, last: { run: 3 }, runsWith: 3,
  });
  const lines = historyLines(view);
  t.match(lines[0], /^history of quick: 5 of 5 filed runs in view \(run 1, 2026-11-01T02:00:00\.000Z \.\. run 5, 2026-11-05T02:00:00\.000Z\); the latest held against the 4 before it$/);
  t.ok(lines.includes('  finding page0-not-restored: 42/150 (28%, 95% 21-36%) over 5 runs; first seen run 1 (2026-11-01T02:00:00.000Z), last run 3 (2026-11-03T02:00:00.000Z), in 3 of 5 runs'), lines.join('\n'));
  t.equal(lines.at(-1), 'nothing moved in the latest run');
});

t.test('--last bounds the runs read', async (t) => {
  const store = await HistoryStore.open(join(dir, 'last', 'history.sqlite'));
  t.teardown(() => store.close());
  for (const [i, night] of fiveNights().slice(0, 4).entries()) store.add(night, `/runs/${i + 1}`);
  const twoNights = historyView(store.runs('quick'), 2);
  t.same(twoNights.runs.map((r) => r.id), [3, 4], 'the latest and the one before it');
  t.same(kinds(twoNights.changes), ['finding-stopped dw-on-4k-ext4', 'rate-moved dw-on-4k-ext4'], '24/30 to 0/30 on a new server');
  const s = twoNights.scenarios.find((x) => x.scenario === 'dw-on-4k-ext4')!;
  t.match(s.seen.find((x) => x.name === 'page0-not-restored'), { rate: { hits: 24, of: 60 }, first: { run: 1 }, runsWith: 3 }, 'rates over the runs read; first seen among all filed');
});

t.test('a run filed twice is one run; campaigns are kept apart', async (t) => {
  const store = await HistoryStore.open(join(dir, 'twice', 'history.sqlite'));
  t.teardown(() => store.close());
  const run = quickRun(3);
  t.same(store.add(run, '/a'), { id: 1, added: true });
  t.same(store.add(run, '/a-copy'), { id: 1, added: false }, 'the same campaign, start and shard');
  store.add({ ...quickRun(3), campaign: 'nightly' }, '/b');
  t.same(store.campaigns(), ['nightly', 'quick']);
  t.same(store.runs('quick').map((r) => [r.id, r.dir]), [[1, '/a']]);
  t.same(historyView(store.runs('quick'), 10).changes, [], 'one run: nothing to hold it against');
  const oneRun = historyLines(historyView(store.runs('quick'), 10));
  t.equal(oneRun.at(-1), 'one run in view: nothing to hold it against');
  t.match(oneRun[0], /^history of quick: 1 of 1 filed runs in view \(run 1, .*\); none before the latest$/);
  t.ok(oneRun.some((l) => / over 1 run; /.test(l)), 'one run, not "1 runs"');
});

t.test('a file that is not a store, or one of a newer rig, is bad input', async (t) => {
  const junk = join(dir, 'junk.sqlite');
  writeFileSync(junk, 'not a database at all, just text that is long enough to be read as a header');
  await t.rejects(HistoryStore.open(junk), { exitCode: 2, message: /junk\.sqlite: not a history store \(.*\); name another store file$/ });
  t.notOk(existsSync(`${junk}.lock`), 'its lock is gone with it');
});

t.test('a second writer while one files is refused; a lock whose process is gone is taken over', async (t) => {
  const path = join(dir, 'locked', 'history.sqlite');
  const first = await HistoryStore.open(path);
  await t.rejects(HistoryStore.open(path), { exitCode: 2, message: /history\.sqlite: another rig \(pid \d+\) is filing into this store; run once it has finished$/ });
  const reader = await HistoryStore.open(path, { read: true }).catch((e: Error) => e);
  t.match(reader, { message: /no history store here yet/ }, 'nothing written yet: nothing to read');
  first.add(quickRun(3), '/a');
  const reading = await HistoryStore.open(path, { read: true });
  t.same(reading.campaigns(), ['quick'], 'a reader needs no lock');
  reading.close();
  first.close();
  writeFileSync(`${path}.lock`, '999999999:1\n');
  const after = await HistoryStore.open(path);
  t.same(after.add(quickRun(3, '2026-11-02T02:00:00.000Z'), '/b'), { id: 2, added: true }, 'the dead writer\'s lock taken over');
  after.close();
  t.notOk(existsSync(`${path}.lock`));
});
