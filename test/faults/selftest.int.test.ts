/**
 * `rig disk selftest` on the FUSE disk, as a user runs it: one seed of each kind of run through the
 * real stack, the model holding, the result as JSON and a line a seed; bad counts are one line and
 * exit 2; SIGINT stops it. (The dm backend's run is in test/faults/dm/dm-guest.int.test.ts.)
 */
import t from 'tap';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_KINDS, type SelftestResult } from '../../faults/selftest/model-check.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';

t.before(ensureBuilt);

t.test('one seed of each kind: the disk keeps its model', async (t) => {
  const r = await rig(['disk', 'selftest', '--seeds', String(RUN_KINDS.length), '--plans', '5', '--jobs', '2', '--json']);
  t.equal(r.exitCode, 0, r.stderr);
  const result = JSON.parse(r.stdout) as SelftestResult;
  t.equal(result.backend, 'fuse');
  t.same(result.problems, []);
  t.equal(result.images, RUN_KINDS.length * 5);
  t.equal(result.alignedPagesTorn[16384] ?? 0, 0);
  t.ok((result.alignedPagesTorn[4096] ?? 0) > 0);
  t.match(r.stderr, /^\[\d\/8\] seed 1 \(atomic 512, sizes, cut at the end\): \d+ pending, 5 crash images, as the model says$/m);
  t.match(r.stderr, /^selftest \(fuse\): 8 seeds, 40 crash images; 16 KiB writes torn: aligned \d+ at atomic 4k, 0 at 16k; misaligned \d+ at 16k; the disk keeps its model$/m);
});

t.test('bad counts', async (t) => {
  for (const [flag, value] of [['--seeds', '0'], ['--plans', 'many'], ['--first-seed', '-3']] as const) {
    const r = await rig(['disk', 'selftest', flag, value]);
    t.equal(r.exitCode, 2, `${flag} ${value}`);
    t.equal(r.stderr.trim(), `rig: ${flag}: '${value}' is not a count; use a whole number from 1 to ${flag === '--plans' ? 1000 : flag === '--seeds' ? 100000 : 1000000000}`);
  }
});

t.test('SIGINT ends the run once the seeds under way end: no verdict, nothing left', async (t) => {
  // the seeds' disks are made in TMPDIR: a short one, for their control sockets' paths
  const dir = mkdtempSync(join(tmpdir(), 'rig-st-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const child = rig(['disk', 'selftest', '--seeds', '1000', '--plans', '2', '--jobs', '1'], { TMPDIR: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (/^\[1\/1000\] /m.test(stderr)) child.kill('SIGINT');
  });
  const ended = await child;
  t.equal(ended.signal, 'SIGINT', `the run ends by the re-raised signal (${ended.stderr.split('\n').slice(-3).join(' | ')})`);
  t.equal(ended.stdout, '', 'no verdict on a run that did not finish');
  // however late the signal lands, no seed starts after it: the one under way (one job) may end
  const [before, after] = ended.stderr.split(/^rig: SIGINT received, cleaning up$/m);
  t.ok(after !== undefined, 'the signal is said');
  const seeds = (text: string | undefined) => (text ?? '').match(/^\[\d+\/1000\] /gm)?.length ?? 0;
  t.ok(seeds(before) >= 1, 'a seed reported before the signal');
  t.ok(seeds(after) <= 1, `at most the seed under way reported after it (${seeds(after)})`);
  t.same(leftoversUnder(dir), [], 'no mount, loop device or helper of a seed');
  t.same(readdirSync(dir), [], "no seed's folder");
});
