/**
 * Whole crash cycles with the real mariadbd on the real power-fail disk: the three headline
 * scenarios over a few seeds, and the line between a finding and a rig failure.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { CycleRecord, ScenarioSettings } from '../../rig/results/types.js';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';

const work = mkdtempSync(join(tmpdir(), 'rig-cycle-test-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();

function scenario(name: string, doublewrite: boolean, atomicUnit: number, fs: ScenarioSettings['disk']['fs'], flushMethod = 'O_DIRECT'): ScenarioSettings {
  const server = { doublewrite, flushMethod, pageSize: 16384, bufferPool: '64M', redoSize: '96M' };
  const disk = { atomicUnit, fs, trigger: { kind: 'armed', pendingPageWrites: 16 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 };
  return {
    name,
    runtime: 'local',
    server,
    disk,
    load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150 },
    expect: defaultExpectation(server, disk),
  };
}

async function cycle(settings: ScenarioSettings, seed: number): Promise<CycleRecord> {
  const { server, version } = await runtime.describe();
  const dir = join(work, `${settings.name}-${seed}`);
  const record = await runCycle({
    id: `${settings.name}-${seed}`,
    settings,
    cycle: seed,
    seed,
    expectation: settings.expect,
    dir,
    cacheRoot: join(work, 'cache'),
    runtime,
    serverVersion: `${server} ${version}`,
    repro: `rig repro ${dir}`,
  });
  const torn = record.tornPagesBefore.length;
  t.comment(`${record.id}: ${record.verdict}, ${torn} torn, ${record.reason}; timings ${JSON.stringify(record.timings)}`);
  return record;
}

t.test('doublewrite on, atomic 4k: torn pages are restored, no commit lost', async (t) => {
  const s = scenario('dw-on-4k', true, 4096, 'ext4');
  const records = [await cycle(s, 1), await cycle(s, 2), await cycle(s, 3)];
  for (const r of records) {
    // MariaDB 10.11 does not restore page 0 of a .ibd from a valid doublewrite copy ("The first
    // page of file ... is corrupted") and then serves the table corrupted: a real finding the rig
    // reports as silent-corruption. Any other way of not recovering fails this test.
    const page0 = r.tornPagesBefore.some((p) => p.page === 0 && p.file.endsWith('.ibd') && p.validAfter === false);
    if (page0) t.comment(`${r.id}: page 0 of a tablespace tore and was not restored: ${r.verdict} (known MariaDB finding)`);
    else t.ok(['restored', 'no-torn'].includes(r.verdict), `${r.id}: recovered (${r.verdict}: ${r.reason})`);
    t.equal(r.ledger.missing, 0, `${r.id}: every acknowledged commit is present`);
    t.ok(r.ledger.acked > 0, `${r.id}: the load acknowledged commits`);
    if (!page0) t.ok(r.expectationHeld, `${r.id}: the expectation held`);
  }
  const torn = records.reduce((n, r) => n + r.tornPagesBefore.length, 0);
  t.ok(torn > 0, `the cuts tore pages (${torn} in all), so recovery had something to restore`);
  const dw = records.filter((r) => r.verdict === 'restored' && r.attribution.doublewrite > 0).length;
  t.comment(`attribution over the seeds: doublewrite ${records.reduce((n, r) => n + r.attribution.doublewrite, 0)}, redo ${records.reduce((n, r) => n + r.attribution.redo, 0)}`);
  t.comment(`cycles restored with pages attributed to the doublewrite buffer: ${dw} of ${records.length}`);
});

t.test('doublewrite on, buffered page writes (flush method fsync): restored from the doublewrite buffer', async (t) => {
  // With O_DIRECT the torn pages in use are mostly fresh pages MariaDB rebuilds from redo; through
  // the page cache, updated pages reach the disk in batches and tear with a doublewrite copy behind.
  const s = scenario('dw-on-4k-fsync', true, 4096, 'ext4', 'fsync');
  const records = [await cycle(s, 1), await cycle(s, 2)];
  for (const r of records) {
    t.ok(['restored', 'no-torn'].includes(r.verdict), `${r.id}: recovered (${r.verdict}: ${r.reason})`);
    t.equal(r.ledger.missing, 0, `${r.id}: every acknowledged commit is present`);
  }
  const restored = records.filter((r) => r.verdict === 'restored' && r.attribution.doublewrite > 0);
  t.ok(restored.length > 0, `at least one cycle restored torn pages through the doublewrite buffer (${restored.map((r) => `${r.id}: ${r.attribution.doublewrite}`).join(', ')})`);
});

t.test('doublewrite off, atomic 16k on ext4 bigalloc: never a torn page', async (t) => {
  const s = scenario('dw-off-16k-bigalloc', false, 16384, 'ext4-bigalloc16k');
  for (const seed of [1, 2]) {
    const r = await cycle(s, seed);
    t.equal(r.tornPagesBefore.length, 0, `${r.id}: no page torn`);
    t.equal(r.verdict, 'no-torn', `${r.id}: ${r.reason}`);
    t.equal(r.cut?.stats.pageWritesStraddling, 0, `${r.id}: no page write straddled a 16 KiB unit`);
  }
});

t.test('doublewrite off, atomic 4k: the negative control tears pages', async (t) => {
  const s = scenario('dw-off-4k', false, 4096, 'ext4');
  const records = [await cycle(s, 1), await cycle(s, 2)];
  for (const r of records) {
    t.not(r.verdict, 'rig-error', `${r.id}: the rig did its part (${r.reason})`);
    if (r.tornPagesBefore.length) {
      t.ok(['detected', 'silent-corruption', 'restored'].includes(r.verdict), `${r.id}: torn pages were judged (${r.verdict})`);
      t.ok(r.tornPagesBefore.some((p) => p.invalidBefore), `${r.id}: the verifier saw a torn page as invalid`);
    }
  }
  t.ok(records.some((r) => r.tornPagesBefore.length > 0), 'at least one cycle tore pages: the rig is not blind');
});

t.test('a server that cannot start because of the rig is a rig error, not a finding', async (t) => {
  const s = scenario('rig-fault', true, 4096, 'ext4');
  s.server = { ...s.server, bufferPool: 'lots' }; // the rig passes a setting the server cannot read
  const r = await cycle(s, 1);
  t.equal(r.verdict, 'rig-error', `verdict is rig-error: ${r.reason}`);
  t.notOk(r.expectationHeld, 'a rig error never counts as a pass');
});

t.test('nothing is left behind', async (t) => {
  const mounts = (await execa('cat', ['/proc/self/mountinfo'])).stdout;
  t.notMatch(mounts, /rig-cycle-test-/, 'no mount of these cycles remains');
  t.notMatch((await execa('losetup', ['-a'])).stdout, /rig-cycle-test-/, 'no loop device remains');
  const ps = (await execa('ps', ['-eo', 'args'])).stdout;
  t.notMatch(ps, /rig-cycle-test-/, 'no helper or server of these cycles remains');
});
