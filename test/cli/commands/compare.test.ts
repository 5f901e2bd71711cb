// `rig compare OLD NEW` as a CI step runs it: exit 0 when nothing moved, 1 with the changes first,
// --json for a script, and bad input as one line with exit 2.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { CampaignResults } from '../../../rig/results/types.js';
import { ensureBuilt, rig } from '../../fixtures/rig-cli.js';
import { contradict, quickRun, writeRunDir } from '../../fixtures/history/nightly-runs.js';

t.before(ensureBuilt);
const base = mkdtempSync(join(tmpdir(), 'rig-compare-'));
t.teardown(() => rmSync(base, { recursive: true, force: true }));

const runDir = (name: string, results: CampaignResults) => writeRunDir(base, name, results);

const monday = runDir('monday', quickRun(30));
const tuesday = runDir('tuesday', quickRun(30, '2026-11-02T02:00:00.000Z'));
const wednesdayRun = quickRun(30, '2026-11-03T02:00:00.000Z');
contradict(wednesdayRun, 'dw-on-4k-ext4', 12, 'lost-commit');
const wednesday = runDir('wednesday', wednesdayRun);

t.test('nothing moved: exit 0, every scenario\'s figures, the verdict last', async (t) => {
  const run = await rig(['compare', monday, tuesday]);
  t.equal(run.exitCode, 0, run.stderr);
  const lines = run.stdout.split('\n');
  t.match(lines[0], /^comparing quick \(2026-11-01T02:00:00\.000Z\) with quick \(2026-11-02T02:00:00\.000Z\)$/);
  t.ok(lines.includes('dw-on-4k-ext4: 30 -> 30 judged cycles; server mariadbd 10.11.19-MariaDB-0+deb12u1'), run.stdout);
  t.equal(lines.at(-1), 'nothing moved since the earlier run');
});

t.test('something moved: exit 1, what moved right after the heading', async (t) => {
  const run = await rig(['compare', tuesday, wednesday]);
  t.equal(run.exitCode, 1, run.stderr);
  const lines = run.stdout.split('\n');
  t.match(lines[1], /^MOVED dw-on-4k-ext4: contradicting cycles 0\/30 .* -> 12\/30 /);
  t.match(lines[2], /^NEW dw-on-4k-ext4: a failure class the earlier run did not have: loses-commits in 12 cycles$/);
  t.equal(lines.at(-1), '2 changes since the earlier run');

  const json = await rig(['compare', tuesday, wednesday, '--json']);
  t.equal(json.exitCode, 1);
  const parsed = JSON.parse(json.stdout) as { changes: { kind: string }[] };
  t.same(parsed.changes.map((c) => c.kind), ['rate-moved', 'new-failure-class']);
});

t.test('bad input: one line, exit 2', async (t) => {
  const empty = join(base, 'empty');
  mkdirSync(empty);
  for (const [args, message] of [
    [[monday, join(base, 'missing')], /^rig: \S+\/missing: cannot read campaign results \(ENOENT\); give a folder a campaign wrote, holding results\.json$/],
    [[empty, monday], /^rig: \S+\/empty\/results\.json: cannot read campaign results \(ENOENT\)/],
  ] as const) {
    const run = await rig(['compare', ...args]);
    t.equal(run.exitCode, 2, `${args.join(' ')}: exit 2`);
    t.match(run.stderr, message);
    t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    t.equal(run.stdout, '');
  }
  const one = await rig(['compare', monday]);
  t.equal(one.exitCode, 2, 'one folder: a usage error');
  t.equal(one.stderr, "rig: missing required argument 'new'; see rig compare --help", 'one line, the rig\'s own');
});
