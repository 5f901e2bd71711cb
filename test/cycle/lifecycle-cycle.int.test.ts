/**
 * Whole crash cycles with the real mariadbd on the real power-fail disk, one per lifecycle load
 * kind mixed with the write-only transactions (doublewrite on, atomic 4k, ext4, O_DIRECT): each is
 * judged as its evidence says, the scan agrees with the disk's truth, the lifecycle steps were
 * acknowledged and checked after recovery, and the writes pending on page 0 of an .ibd at the cut
 * (what these kinds are for) are counted and printed.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import type { LifecycleKindName } from '../../rig/load/load-mix.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from '../../rig/results/page-zero.js';
import type { CycleRecord, ScenarioSettings } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { checkJudged, checkTruth } from '../fixtures/judged-cycle.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const work = mkdtempSync(join(tmpdir(), 'rig-lifecycle-test-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();

function scenario(kind: LifecycleKindName): ScenarioSettings {
  return {
    name: kind,
    runtime: 'local',
    server: { engine: 'innodb', doublewrite: true, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '64M', redoSize: '96M' },
    disk: { profile: LOCAL.name, model: LOCAL.device, atomicUnit: 4096, fs: 'ext4', trigger: { kind: 'armed', pendingPageWrites: 16 }, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 },
    load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150, mix: { 'write-only': 4, [kind]: 1 } },
    expect: 'recovers',
  };
}

async function cycle(settings: ScenarioSettings, seed: number): Promise<CycleRecord> {
  const { server, version } = await runtime.describe();
  const dir = join(work, `${settings.name}-${seed}`);
  return runCycle({
    id: `${settings.name}-${seed}`, settings, cycle: seed, seed, expectation: settings.expect, dir,
    cacheRoot: join(work, 'cache'), runtime, serverVersion: `${server} ${version}`, repro: `rig repro ${dir}`,
  });
}

const pageZero: string[] = [];
for (const kind of ['churn', 'alter', 'partitions', 'partition-truncate', 'bulk'] as const) {
  t.test(`${kind}: a crash cycle is judged as its evidence says`, async (t) => {
    const r = await cycle(scenario(kind), 1);
    t.comment(`${r.id}: ${r.verdict}, ${r.tornPagesBefore.length} torn; ${r.reason}; timings ${JSON.stringify(r.timings)}`);
    if (r.cut) checkTruth(t, r);
    checkJudged(t, r);
    t.ok(r.ledger.acked > 0, `${r.id}: the load acknowledged commits`);
    t.ok((r.ledger.steps?.acked ?? 0) > 0, `${r.id}: ${r.ledger.steps?.acked} ${kind} steps acknowledged and checked after recovery`);
    t.ok(r.pageZeroWrites, `${r.id}: the writes pending on page 0 were recorded`);
    const hits = (r.pageZeroWrites ?? []).filter((p) => p.file.endsWith('.ibd')).map((p) => `${p.file} ${p.writes}${p.class === 'whole' ? '' : ` ${p.class}`}`);
    pageZero.push(`${r.id}: ${ibdPageZeroWrites(r)} pending writes on page 0 of an .ibd, ${lifecyclePageZeroWrites(r)} on the ${kind} tables (${hits.join(', ') || 'none'}); verdict ${r.verdict}`);
    t.comment(pageZero.at(-1)!);
  });
}

t.test('page 0 of an .ibd at the cut, per kind', async (t) => {
  for (const line of pageZero) t.comment(line);
  t.equal(pageZero.length, 5);
});

t.test('nothing is left behind', async (t) => {
  t.notMatch((await execa('cat', ['/proc/self/mountinfo'])).stdout, /rig-lifecycle-test-/, 'no mount of these cycles remains');
  t.notMatch((await execa('losetup', ['-a'])).stdout, /rig-lifecycle-test-/, 'no loop device remains');
  t.notMatch((await execa('ps', ['-eo', 'args'])).stdout, /rig-lifecycle-test-/, 'no helper or server of these cycles remains');
});
