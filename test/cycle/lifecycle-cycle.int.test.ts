/**
 * A whole crash cycle with the real mariadbd on the real power-fail disk, its load mixing every
 * lifecycle kind with the write-only transactions (doublewrite on, atomic 4k, ext4, O_DIRECT): it
 * is judged as its evidence says, the scan agrees with the disk's truth, every kind had steps
 * acknowledged (the load's ledger, kept beside the cut), those steps were checked after recovery
 * exactly when the server started and its checks ran, and the writes pending on page 0 of an .ibd
 * at the cut (what these kinds are for) are counted and printed.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { readLoadFile } from '../../rig/load/load-file.js';

import { LOAD_KINDS, type LoadMix } from '../../rig/results/load-kinds.js';
import { ibdPageZeroWrites, lifecyclePageZeroWrites } from '../../rig/results/page-zero.js';
import type { ScenarioSettings } from '../../rig/results/types.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { checkJudged, checkTruth } from '../fixtures/judged-cycle.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { localScenario } from '../fixtures/local-scenario.js';

const work = mkdtempSync(join(tmpdir(), 'rig-lifecycle-test-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runtime = createLocalRuntime();

const KINDS = LOAD_KINDS.filter((k) => k !== 'write-only');
const mix: LoadMix = { 'write-only': 4, ...Object.fromEntries(KINDS.map((k) => [k, 1])) };
const settings: ScenarioSettings = localScenario('lifecycle', {
  server: { bufferPool: '64M', redoSize: '96M' },
  load: { connections: 4, tables: 4, rows: 5000, maxSeconds: 150, mix },
  expect: 'recovers',
});

t.test('a crash cycle under every lifecycle kind is judged as its evidence says', async (t) => {
  const { server, version } = await runtime.describe();
  const dir = join(work, 'lifecycle-1');
  const r = await runCycle({
    id: 'lifecycle-1', settings, cycle: 1, seed: 1, expectation: settings.expect, dir,
    cacheRoot: PREPARED_CACHE, runtime, serverVersion: `${server} ${version}`, repro: `rig repro ${dir}`,
  });
  t.comment(`${r.id}: ${r.verdict}, ${r.tornPagesBefore.length} torn; ${r.reason}; timings ${JSON.stringify(r.timings)}`);
  if (r.cut) checkTruth(t, r);
  checkJudged(t, r);
  t.ok(r.ledger.acked > 0, `${r.id}: the load acknowledged commits`);
  const tables = readLoadFile(join(dir, 'cut', 'load.json'))?.lifecycle?.tables ?? [];
  for (const kind of KINDS) {
    const steps = tables.filter((x) => x.kind === kind).reduce((n, x) => n + x.history.length - 1, 0);
    t.ok(steps > 0, `${kind}: ${steps} steps acknowledged before the cut`);
  }
  if (r.ledger.checked) {
    t.ok(r.serverStarted, `${r.id}: the checks ran on a server that started`);
    t.ok((r.ledger.steps?.acked ?? 0) > 0, `${r.id}: ${r.ledger.steps?.acked} steps acknowledged and checked after recovery`);
  } else {
    t.equal(r.ledger.steps, undefined, `${r.id}: no step was checked: the checks did not run (${r.verdict})`);
    t.notOk(['restored', 'no-torn'].includes(r.verdict), `${r.id}: a cycle whose checks did not run did not pass`);
  }
  t.ok(r.pageZeroWrites, `${r.id}: the writes pending on page 0 were recorded`);
  const hits = (r.pageZeroWrites ?? []).filter((p) => p.file.endsWith('.ibd')).map((p) => `${p.file} ${p.writes}${p.class === 'whole' ? '' : ` ${p.class}`}`);
  t.comment(`${r.id}: ${ibdPageZeroWrites(r)} pending writes on page 0 of an .ibd, ${lifecyclePageZeroWrites(r)} on the lifecycle tables (${hits.join(', ') || 'none'}); verdict ${r.verdict}`);
});

t.test('nothing is left behind', async (t) => {
  t.notMatch((await execa('cat', ['/proc/self/mountinfo'])).stdout, /rig-lifecycle-test-/, 'no mount of these cycles remains');
  t.notMatch((await execa('losetup', ['-a'])).stdout, /rig-lifecycle-test-/, 'no loop device remains');
  t.notMatch((await execa('ps', ['-eo', 'args'])).stdout, /rig-lifecycle-test-/, 'no helper or server of these cycles remains');
});
