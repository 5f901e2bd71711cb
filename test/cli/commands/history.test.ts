// `rig history add DIR` and `rig history` as a nightly job runs them: a night filed, then read;
// exit 1 on the night something moved, 0 otherwise; the store in the work dir unless --store says;
// bad input one line, exit 2, nothing filed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { CampaignResults } from '../../../rig/results/types.js';
import { HistoryStore } from '../../../rig/history/history-store.js';
import { ensureBuilt, rig } from '../../fixtures/rig-cli.js';
import { fiveNights, quickRun, writeRunDir } from '../../fixtures/history/nightly-runs.js';

t.before(ensureBuilt);
const base = mkdtempSync(join(tmpdir(), 'rig-history-cli-'));
t.teardown(() => rmSync(base, { recursive: true, force: true }));

const runDir = (name: string, results: CampaignResults) => writeRunDir(base, name, results);

const nights = fiveNights().map((r, i) => runDir(`night-${i + 1}`, r));
const workDir = join(base, 'work');
const env = { POWERCUT_RIG_WORK_DIR: workDir };

t.test('a night filed, then read: exit 1 the night something moved, 0 the night after', async (t) => {
  const empty = await rig(['history'], env);
  t.equal(empty.exitCode, 2);
  t.match(empty.stderr, /^rig: \S+\/work\/history\.sqlite: no history store here yet; file a run with rig history add DIR, or name another store file$/);
  t.notOk(existsSync(join(workDir, 'history.sqlite')), 'reading made no store');

  // nights 1 to 3 filed in this process (test/history/history-store.test.ts reads them night by night)
  const store = await HistoryStore.open(join(workDir, 'history.sqlite'));
  for (const [i, night] of fiveNights().slice(0, 3).entries()) store.add(night, nights[i]!);
  store.close();

  const add = await rig(['history', 'add', nights[3]!], env);
  t.equal(add.exitCode, 0, add.stderr);
  t.equal(add.stdout, `filed run 4: quick, started 2026-11-04T02:00:00.000Z, 90 cycles, in ${join(workDir, 'history.sqlite')}`);
  const night4 = await rig(['history'], env);
  t.equal(night4.exitCode, 1, 'night 4: something moved');
  t.match(night4.stdout, /^STOPPED dw-on-4k-ext4: finding page0-not-restored 42\/90 .* after the server changed/m, 'stopped after the upgrade');
  t.match(night4.stdout, /\n2 changes in the latest run$/);

  const again = await rig(['history', 'add', nights[3]!], env);
  t.equal(again.exitCode, 0);
  t.match(again.stdout, /^already filed as run 4: quick, started 2026-11-04T02:00:00\.000Z/);

  t.equal((await rig(['history', 'add', nights[4]!], env)).exitCode, 0);
  const night5 = await rig(['history', '--last', '4', '--json'], env);
  t.equal(night5.exitCode, 0, 'night 5 is night 4 again: nothing new');
  const view = JSON.parse(night5.stdout) as { runs: { id: number }[]; changes: unknown[]; standing: { kind: string }[] };
  t.same(view.runs.map((r) => r.id), [2, 3, 4, 5], '--last 4');
  t.same([view.changes.length, view.standing.map((c) => c.kind).sort()], [0, ['finding-stopped', 'rate-moved']], 'what moved on night 4 stands');
});

t.test('--store names another file; campaigns are read one at a time', async (t) => {
  const store = join(base, 'elsewhere', 'h.sqlite');
  t.equal((await rig(['history', 'add', '--store', store, nights[0]!])).exitCode, 0);
  t.equal((await rig(['history', 'add', '--store', store, runDir('nightly', { ...quickRun(3), campaign: 'nightly' })])).exitCode, 0);
  const both = await rig(['history', '--store', store]);
  t.equal(both.exitCode, 2);
  t.match(both.stderr, /h\.sqlite holds several campaigns \(nightly, quick\): name one with --campaign$/);
  const one = await rig(['history', '--store', store, '--campaign', 'nightly']);
  t.equal(one.exitCode, 0, one.stderr);
  t.match(one.stdout, /one run in view: nothing to hold it against$/);
});

t.test('bad input: one line, exit 2, nothing filed', async (t) => {
  const store = join(base, 'bad', 'h.sqlite');
  const running = runDir('running', { ...quickRun(3), outcome: 'running' });
  for (const [args, message] of [
    [['history', 'add', '--store', store, join(base, 'nowhere')], /nowhere: cannot read campaign results \(ENOENT\)/],
    [['history', 'add', '--store', store, running], /running: the campaign is still running \(or was killed\); file it once it finished, or after --resume$/],
    [['history', '--store', store, '--last', '1'], /--last: '1' is not a whole number of at least 2/],
    [['history', 'add', '--store', '/proc/h.sqlite', nights[0]!], /\/proc\/h\.sqlite: cannot open the history store/],
  ] as const) {
    const run = await rig([...args]);
    t.equal(run.exitCode, 2, `${args.join(' ')}: ${run.stderr}`);
    t.match(run.stderr.trim(), message);
    t.equal(run.stderr.trim().split('\n').length, 1);
  }
  t.notOk(existsSync(store), 'no store made for input that was refused');
  const unknown = await rig(['history', '--store', join(base, 'elsewhere', 'h.sqlite'), '--campaign', 'weekly']);
  t.equal(unknown.exitCode, 2);
  t.match(unknown.stderr, /--campaign: no run of 'weekly' is filed in \S+h\.sqlite; filed: nightly, quick/);
});

t.test('rig report DIR --history: the section from the store; a run not filed is bad input', async (t) => {
  const report = await rig(['report', nights[4]!, '--history'], env);
  t.equal(report.exitCode, 0, report.stderr);
  const page = readFileSync(join(nights[4]!, 'index.html'), 'utf8');
  t.match(page, /<section id="history"><h2>Since earlier runs<\/h2>/);
  t.match(page, /<li class="still">still, as the run before: STOPPED dw-on-4k-ext4/);
  const unfiled = runDir('unfiled', quickRun(3, '2026-12-01T02:00:00.000Z'));
  const refused = await rig(['report', unfiled, '--history'], env);
  t.equal(refused.exitCode, 2);
  t.match(refused.stderr, /^rig: \S+\/unfiled: this run is not filed in \S+history\.sqlite; file it first with rig history add \S+\/unfiled$/);
  t.notOk(existsSync(join(unfiled, 'index.html')), 'no report written');
});
