// Two runs of the quick campaign built from its real records, changed on purpose: the comparison
// flags exactly what was changed, and nothing for a run compared with itself.
import t from 'tap';
import { compareRuns } from '../../rig/history/compare-runs.js';
import { comparisonLines } from '../../rig/history/comparison-lines.js';
import { runFigures } from '../../rig/history/run-figures.js';
import { contradict, findingHits, quickRun, serverVersion } from '../fixtures/history/nightly-runs.js';

t.test('a run compared with an equal one: nothing moved', async (t) => {
  const c = compareRuns(runFigures(quickRun(30)), runFigures(quickRun(30, '2026-11-02T02:00:00.000Z')));
  t.same(c.changes, []);
  t.equal(c.scenarios.length, 3);
  t.ok(c.scenarios.every((s) => s.rates.length === 1 && !s.rates[0]!.moved && s.rates[0]!.after.hits === 0), 'each scenario: no cycle contradicted, in either');
  t.equal(comparisonLines(c).at(-1), 'nothing moved since the earlier run');
});

t.test('contradictions that rose past the noise, a failure class never seen: both flagged, nothing else', async (t) => {
  const before = quickRun(30);
  const after = quickRun(30, '2026-11-02T02:00:00.000Z');
  contradict(after, 'dw-on-4k-ext4', 12, 'lost-commit');
  contradict(after, 'dw-off-16k-bigalloc', 1, 'hung');
  const c = compareRuns(runFigures(before), runFigures(after));
  t.same(c.changes.map((x) => `${x.kind} ${x.scenario}`).sort(), [
    'new-failure-class dw-off-16k-bigalloc',
    'new-failure-class dw-on-4k-ext4',
    'rate-moved dw-on-4k-ext4',
  ], 'one contradiction in 30 is within the noise; its class is still new');
  const moved = c.changes.find((x) => x.kind === 'rate-moved')!;
  t.match(moved, { what: 'contradicting', before: { hits: 0, of: 30 }, after: { hits: 12, of: 30 } });
  const lines = comparisonLines(c);
  t.ok(lines.includes('MOVED dw-on-4k-ext4: contradicting cycles 0/30 (0%, 95% 0-11%) -> 12/30 (40%, 95% 25-58%)'), lines.join('\n'));
  t.ok(lines.includes('NEW dw-off-16k-bigalloc: a failure class the earlier run did not have: hangs in 1 cycle'));
  t.equal(lines.at(-1), '3 changes since the earlier run');
});

t.test('a negative control that refuses in both runs has no new class', async (t) => {
  const c = compareRuns(runFigures(quickRun(30)), runFigures(quickRun(30)));
  t.same(c.scenarios.find((s) => s.scenario === 'dw-off-4k-ext4')?.after?.classes, { refuses: 30 }, 'detected is the refuses class');
  t.same(c.changes, []);
});

t.test('a finding that stops hitting after a server upgrade is flagged as such; the same drop on the same server is a moved rate', async (t) => {
  const before = quickRun(30);
  findingHits(before, 'dw-on-4k-ext4', 'page0-not-restored', 9);
  const upgraded = quickRun(30, '2026-11-02T02:00:00.000Z');
  findingHits(upgraded, 'dw-on-4k-ext4', 'page0-not-restored', 0);
  serverVersion(upgraded, 'mariadbd 10.11.20-MariaDB-0+deb12u1');
  const c = compareRuns(runFigures(before), runFigures(upgraded));
  t.same(c.changes.map((x) => x.kind).sort(), ['finding-stopped', 'rate-moved'], 'stopped, and its rate moved (9/30 to 0/30)');
  const stopped = c.changes.find((x) => x.kind === 'finding-stopped');
  t.match(stopped, { scenario: 'dw-on-4k-ext4', finding: 'page0-not-restored', servers: { before: ['mariadbd 10.11.19-MariaDB-0+deb12u1'], after: ['mariadbd 10.11.20-MariaDB-0+deb12u1'] } });
  t.ok(comparisonLines(c).some((l) => l.startsWith('STOPPED dw-on-4k-ext4: finding page0-not-restored 9/30') && l.endsWith('after the server changed (mariadbd 10.11.19-MariaDB-0+deb12u1 -> mariadbd 10.11.20-MariaDB-0+deb12u1)')));
  t.ok(c.scenarios.filter((s) => s.scenario !== 'dw-on-4k-ext4').every((s) => s.serverChanged), 'every scenario ran on the new server');

  const sameServer = quickRun(30, '2026-11-02T02:00:00.000Z');
  findingHits(sameServer, 'dw-on-4k-ext4', 'page0-not-restored', 0);
  t.same(compareRuns(runFigures(before), runFigures(sameServer)).changes.map((x) => x.kind), ['rate-moved']);
});

t.test('a scenario only one run has is listed, not flagged', async (t) => {
  const after = quickRun(30);
  after.scenarios = after.scenarios.filter((s) => s.name !== 'dw-off-4k-ext4');
  after.cycles = after.cycles.filter((c) => c.scenario !== 'dw-off-4k-ext4');
  const c = compareRuns(runFigures(quickRun(30)), runFigures(after));
  t.same(c.changes, []);
  t.ok(comparisonLines(c).includes('dw-off-4k-ext4: only in the earlier run'));
});

t.test('rig errors are not judged cycles', async (t) => {
  const after = quickRun(30);
  for (const c of after.cycles.filter((c) => c.scenario === 'dw-on-4k-ext4').slice(0, 20)) c.verdict = 'rig-error';
  const c = compareRuns(runFigures(quickRun(30)), runFigures(after));
  t.equal(c.scenarios.find((s) => s.scenario === 'dw-on-4k-ext4')?.after?.judged, 10);
  t.same(c.changes, [], 'twenty rig errors are the rig\'s trouble, not a change in the server');
});
