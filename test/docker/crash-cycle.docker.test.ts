/**
 * The three headline scenarios with the server in a container (the offline MariaDB image), each
 * crash image then judged again with the host's server: on the same image, the two runtimes must
 * reach the same verdict about the same pages.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import type { CycleRecord, ScenarioSettings, ServerSettings } from '../../rig/results/types.js';
import { createDockerRuntime } from '../../rig/runtime/docker.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { ServerRuntime } from '../../rig/runtime/types.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { rejudge } from '../fixtures/rejudge.js';
import { shippedProfile } from '../../faults/device-profile.js';

const LOCAL = shippedProfile('local');

const image = 'powercut-rig/mariadb-offline:10.11';
const runId = `cycle-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'rig-docker-cycle-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

const engine = await useDockerEngine(t, runId);
if (engine) {
  await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mariadb-offline'], log: (l) => t.comment(l) });
  const runtimes: Record<'docker' | 'local', ServerRuntime> = {
    docker: createDockerRuntime({ docker: engine.docker, image, runId }),
    local: createLocalRuntime(),
  };

  const headline: [string, boolean, number, ScenarioSettings['disk']['fs']][] = [
    ['dw-on-4k', true, 4096, 'ext4'],
    ['dw-off-16k-bigalloc', false, 16384, 'ext4-bigalloc16k'],
    ['dw-off-4k', false, 4096, 'ext4'],
  ];

  async function dockerCycle(name: string, doublewrite: boolean, atomicUnit: number, fs: ScenarioSettings['disk']['fs']): Promise<{ dir: string; settings: ScenarioSettings; record: CycleRecord }> {
    const server: ServerSettings = { engine: 'innodb', doublewrite, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '64M', redoSize: '96M' };
    const disk = { profile: LOCAL.name, model: LOCAL.device, atomicUnit, fs, trigger: { kind: 'armed', pendingPageWrites: 16 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 };
    const settings: ScenarioSettings = {
      name: `docker-${name}`, runtime: 'docker', image, server, disk,
      load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150 },
      expect: defaultExpectation(server, disk),
    };
    const { server: binary, version } = await runtimes.docker.describe();
    const dir = join(work, settings.name);
    const record = await runCycle({
      id: settings.name, settings, cycle: 1, seed: 5, expectation: settings.expect, dir,
      cacheRoot: PREPARED_CACHE, runtime: runtimes.docker, serverVersion: `${binary} ${version}`, repro: `rig repro ${dir}`,
    });
    t.comment(`${record.id}: ${record.verdict}, ${record.tornPagesBefore.length} torn; ${record.reason}`);
    return { dir, settings, record };
  }

  const pagesOf = (r: CycleRecord) => r.tornPagesBefore.map((p) => `${p.file}#${p.page}: ${p.validAfter} ${p.doublewrite.restorable}`);

  for (const [name, dw, unit, fs] of headline) {
    t.test(`${name}: the host's server judges the container's crash image the same`, async (t) => {
      const docker = await dockerCycle(name, dw, unit, fs);
      t.not(docker.record.verdict, 'rig-error', `the docker cycle ran: ${docker.record.reason}`);
      t.ok(docker.record.reconciliation?.ok, "its scan agrees with the disk's record");
      const local = await rejudge(docker.dir, join(work, `local-${name}`), { ...docker.settings, runtime: 'local' }, runtimes.local);
      t.comment(`local on the same image: ${local.record.verdict}; ${local.record.reason}`);
      t.same(local.teardownProblems, [], 'the local rejudge tore down cleanly');
      t.equal(local.record.crashImageSha256, docker.record.crashImageSha256, 'the same crash image, byte for byte');
      t.equal(local.record.verdict, docker.record.verdict, "the same verdict (the ledger check is the docker cycle's own)");
      t.same(pagesOf(local.record), pagesOf(docker.record), 'the same torn pages, restored or not alike');
    });
  }
}
