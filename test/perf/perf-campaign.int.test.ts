/**
 * A campaign with a `mode: perf` scenario on the host's mariadbd, through the built CLI: each of
 * its cycles is one pair of runs in results.json's perf list, beside a never-torn live cycle of
 * the same setting; the report puts both halves side by side. Small: 2 pairs of 3 s runs.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadResults } from '../../rig/results/load-results.js';
import { sweepLeftovers } from '../../rig/cleanup/sweep-leftovers.js';
import { contextFromEnv } from '../../rig/context.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';

const base = mkdtempSync(join(tmpdir(), 'rig-perf-campaign-'));
const tmp = join(base, 't');
mkdirSync(tmp);
const env = { RIG_CACHE: PREPARED_CACHE, TMPDIR: tmp };

const CAMPAIGN = `name: perf-small
seed: 1
defaults:
  runtime: local
  server: {bufferPool: 32M, redoSize: 48M}
  load: {tables: 2, rows: 2000, connections: 8}
scenarios:
  - {name: perf-local, mode: perf, cycles: 2, seconds: 3, disk: {profile: local, size: 256M}}
  - {name: off-local, cycles: 1, server: {doublewrite: off}, disk: {profile: local, atomic: 16k, fs: ext4-bigalloc16k, size: 256M}, expect: never-torn, load: {kind: sysbench}}
`;

t.teardown(async () => {
  await sweepLeftovers({ context: contextFromEnv() });
  if ((await leftoversUnder(base)).length === 0) rmSync(base, { recursive: true, force: true });
});

t.before(ensureBuilt);

t.test('perf pairs beside a never-torn cycle, and both halves in the report', async (t) => {
  const file = join(base, 'perf.yml');
  writeFileSync(file, CAMPAIGN);
  const out = join(base, 'out');
  const run = await rig(['campaign', file, '--out', out], env);
  const results = (await loadResults(join(out, 'results.json'))).results;
  t.match(run.stderr, /perf perf-local-1: write QPS on [\d.]+, off [\d.]+ \(off \/ on [\d.]+\)/, 'a progress line per pair');
  t.same(results.perf!.map((p) => [p.id, p.error]), [['perf-local-1', null], ['perf-local-2', null]], 'one record per pair, in order');
  for (const p of results.perf!) t.ok(p.on!.writeQps > 0 && p.off!.writeQps > 0 && p.on!.p99Ms > 0, `${p.id}: figures positive`);
  t.same(results.cycles.map((c) => c.scenario), ['off-local'], 'perf pairs are no cycle records');
  t.equal(results.scenarios.find((s) => s.name === 'perf-local')!.cyclesPlanned, 0);
  const page = readFileSync(join(out, 'index.html'), 'utf8');
  const torn = results.cycles[0]!.tornPagesBefore.length;
  if (results.cycles[0]!.verdict !== 'rig-error') t.match(page, torn === 0 ? /torn pages: never in 1 cycle\b/ : /torn pages: in 1 of 1 cycles/, 'the safety half');
  t.match(page, /write QPS: [+-]\d+% on profile local/, 'the benefit half');
  t.equal(run.exitCode, { pass: 0, fail: 1, 'rig-error': 3, running: 3 }[results.outcome], `exit code follows the outcome (${results.outcome})`);
  t.same(await leftoversUnder(base), [], 'nothing mounted, attached or running');
});
