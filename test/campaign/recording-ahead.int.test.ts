/**
 * A campaign of two explore cycles through the built CLI on the real stack (FUSE disk, loop
 * device, ext4, mariadbd): the second cycle's recording is made while the first cycle's states are
 * judged (rig/campaign/recording-ahead.ts), and says so; SIGINT while both run leaves nothing
 * behind, keeps no half-made recording, and --resume finishes the campaign.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadResults } from '../../rig/results/load-results.js';
import { sweepLeftovers } from '../../rig/cleanup/sweep-leftovers.js';
import { contextFromEnv } from '../../rig/context.js';
import { outcomeExitCode } from '../../rig/results/summarize.js';
import { ensureBuilt, leftoversUnder, pollUntil, rig } from '../fixtures/rig-cli.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { RECORDING_FILE } from '../../faults/recording.js';

const base = mkdtempSync(join(tmpdir(), 'rig-ahead-int-'));
const env = { RIG_CACHE: PREPARED_CACHE };
const STATES = 4;
const file = join(base, 'ahead.yml');
writeFileSync(
  file,
  `name: ahead
seed: 5
defaults:
  cycles: 2
  mode: explore
  states: ${STATES}
  pick: targeted
  runtime: local
  server: {pageSize: 16k, bufferPool: 32M, redoSize: 48M, doublewrite: off}
  disk: {fs: ext4, atomic: 4k, trigger: at-time 3s, size: 256M}
  load: {kind: builtin, connections: 4, tables: 4, rows: 3000, maxSeconds: 60}
evidence: {maxBytes: 1G}
scenarios:
  - name: ctl
    expect: torn-reproduced
`,
);

t.teardown(async () => {
  await sweepLeftovers({ context: contextFromEnv() });
  if ((await leftoversUnder(base)).length === 0) rmSync(base, { recursive: true, force: true });
});

t.before(ensureBuilt);

/** The first cycle's states saved so far. */
const savedOf = (out: string, cycle: string) => (existsSync(join(out, 'cycles')) ? readdirSync(join(out, 'cycles')).filter((id) => id.startsWith(`${cycle}-s`) && existsSync(join(out, 'cycles', id, 'cycle.json'))) : []);

t.test('the next explore cycle records while the one before it is judged', async (t) => {
  const out = join(base, 'whole');
  const child = rig(['campaign', file, '--out', out, '--lanes', '2'], env);
  // the second recording's folder appears while the first cycle still has states to judge; run
  // one after the other, it would appear only once all of them were saved
  const seen = await pollUntil('the second recording never started', 300_000, () => (existsSync(join(out, 'recordings', 'ctl-2')) ? savedOf(out, 'ctl-1') : null), 20);
  t.ok(seen.length < STATES, `the second recording started with ${seen.length} of the first cycle's ${STATES} states saved`);
  const run = await child;
  const results = (await loadResults(out)).results;
  t.equal(run.exitCode, outcomeExitCode(results.outcome), `exit code follows the outcome (${run.stderr.trim().split('\n').slice(-2).join(' | ')})`);
  t.match(run.stdout, /^ctl-1: recorded \d+ writes in \d+\.\d s, \d+ barriers/m, 'the first recording is made in its turn');
  t.match(run.stdout, /^ctl-2: recorded \d+ writes in \d+\.\d s while the cycle before it was judged, \d+ barriers/m, 'the second says it was made ahead');
  t.same(results.cycles.map((c) => c.id), [1, 2].flatMap((n) => Array.from({ length: STATES }, (_, i) => `ctl-${n}-s${i + 1}`)), 'every state of both cycles, in order');
  for (const c of results.cycles) t.not(c.verdict, 'rig-error', `${c.id}: judged (${c.reason.slice(0, 160)})`);
  t.same(results.cycles.map((c) => c.explore?.recording.endsWith(`recordings/${c.explore.run}`)), results.cycles.map(() => true), 'each state names its own cycle\'s recording');
  t.ok(existsSync(join(out, 'recordings', 'ctl-2', RECORDING_FILE)), 'the recording made ahead is kept for its states\' repros');
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
});

t.test('SIGINT while a recording is made ahead, then --resume', async (t) => {
  const out = join(base, 'interrupted');
  const child = rig(['campaign', file, '--out', out, '--lanes', '2'], env);
  await pollUntil('the second recording never started', 300_000, () => (existsSync(join(out, 'recordings', 'ctl-2', 'disk')) ? true : null), 20);
  child.kill('SIGINT');
  const stopped = await child;
  t.equal(stopped.signal, 'SIGINT', 'the run ends by the re-raised signal');
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
  t.notOk(existsSync(join(out, 'recordings', 'ctl-2')), 'the recording made ahead, interrupted, is removed');
  const partial = (await loadResults(out)).results;
  t.ok(partial.cycles.every((c) => c.explore?.run === 'ctl-1'), `only the first cycle's states are recorded (${partial.cycles.map((c) => c.id).join(', ') || 'none'})`);

  const resumed = await rig(['campaign', file, '--out', out, '--resume'], env);
  const results = (await loadResults(out)).results;
  t.equal(resumed.exitCode, outcomeExitCode(results.outcome), `exit code follows the outcome (${resumed.stderr.trim().split('\n').slice(-2).join(' | ')})`);
  t.same(results.cycles.map((c) => c.id), [1, 2].flatMap((n) => Array.from({ length: STATES }, (_, i) => `ctl-${n}-s${i + 1}`)), 'the resumed run judged every state of both cycles');
  for (const c of results.cycles) t.not(c.verdict, 'rig-error', `${c.id}: judged (${c.reason.slice(0, 160)})`);
  const recording = JSON.parse(readFileSync(join(out, 'recordings', 'ctl-2', 'recording.json'), 'utf8')) as { seed: number };
  t.equal(recording.seed, results.cycles.find((c) => c.explore?.run === 'ctl-2')!.explore!.runSeed, 'the second recording has its own cycle\'s seed');
  t.same(await leftoversUnder(base), [], 'nothing left after the resumed run either');
});
