/**
 * `make test-dm`: the disk-model property check on the dm backend, a hundred seeds, in the guest
 * where device-mapper is real (rig disk selftest: flushed data intact, every unit whole or absent,
 * aligned 16 KiB writes never torn at atomic 16k and torn at 4k). Run from the host; it boots the
 * guest itself.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_KINDS, type SelftestResult } from '../../../faults/selftest/model-check.js';
import { ensureBuilt, RIG_MAIN, rig } from '../../fixtures/rig-cli.js';

const SEEDS = 100;
const PLANS = 5; // crash images a seed: each costs the guest most of a second
const shared = mkdtempSync(join(tmpdir(), 'rig-dm-model-'));
t.teardown(() => rmSync(shared, { recursive: true, force: true }));
t.before(ensureBuilt);

t.test(`${SEEDS} seeds on the kernel path`, async (t) => {
  const started = Date.now();
  const run = await rig(['vm', 'run', '--memory', '2G', '--timeout', '3000', '--dir', shared, '--', 'sh', '-c',
    `node ${RIG_MAIN} disk selftest --backend dm --seeds ${SEEDS} --plans ${PLANS} --jobs 2 --json > selftest.json`], {}, { timeout: 3_100_000 });
  const seconds = (Date.now() - started) / 1000;
  t.comment(`guest run: ${seconds.toFixed(0)} s, ${(seconds / SEEDS).toFixed(1)} s a seed`);
  t.comment(run.stderr.split('\n').filter((l) => l.startsWith('selftest')).join('\n'));
  t.equal(run.exitCode, 0, run.stderr.split('\n').slice(-5).join('\n'));
  const result = JSON.parse(readFileSync(join(shared, 'selftest.json'), 'utf8')) as SelftestResult;
  t.same(result.problems, [], 'every crash image as the model says');
  t.equal(result.seeds.length, SEEDS);
  t.equal(result.images, SEEDS * PLANS, `${result.images} crash images`);
  t.equal(result.alignedPagesTorn[16384] ?? 0, 0, 'no 16 KiB-aligned 16 KiB write tore under atomic 16k');
  t.ok((result.alignedPagesTorn[4096] ?? 0) > 0, `aligned 16 KiB writes tore under atomic 4k (${result.alignedPagesTorn[4096]})`);
  t.ok((result.misalignedPagesTorn[16384] ?? 0) > 0, `misaligned ones tore at the 16 KiB boundary under atomic 16k (${result.misalignedPagesTorn[16384]})`);
  const kinds = new Set(result.seeds.map((s) => s.seed % RUN_KINDS.length));
  t.equal(kinds.size, RUN_KINDS.length, 'every kind of run');
  t.ok(result.seeds.filter((s) => s.pending > 0).length >= SEEDS * 0.8, 'most cuts left writes pending');
});
