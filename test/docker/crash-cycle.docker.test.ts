/**
 * The three headline scenarios with the server in a container (the offline MariaDB image) and on
 * the host, same seeds: the verdict classes must agree.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImages } from '../../rig/docker/build-images.js';
import { defaultWorkDir, dockerPaths } from '../../rig/docker/paths.js';
import { defaultExpectation } from '../../rig/campaign/default-expectation.js';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import type { CycleRecord, ScenarioSettings } from '../../rig/results/types.js';
import { createDockerRuntime } from '../../rig/runtime/docker.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { ServerRuntime } from '../../rig/runtime/types.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';

const image = 'powercut-rig/mariadb-offline:10.11';
const runId = `cycle-test-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'rig-docker-cycle-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

const engine = await useDockerEngine(t, runId);
if (engine) {
  await buildImages({ docker: engine.docker, paths: dockerPaths(defaultWorkDir()), names: ['mariadb-offline'], log: (l) => t.comment(l) });
  const runtimes: Record<'docker' | 'local', ServerRuntime> = {
    docker: createDockerRuntime({ docker: engine.docker, image, runId }),
    local: createLocalRuntime(),
  };

  const headline: [string, boolean, number, ScenarioSettings['disk']['fs']][] = [
    ['dw-on-4k', true, 4096, 'ext4'],
    ['dw-off-16k-bigalloc', false, 16384, 'ext4-bigalloc16k'],
    ['dw-off-4k', false, 4096, 'ext4'],
  ];

  async function cycle(kind: 'docker' | 'local', name: string, doublewrite: boolean, atomicUnit: number, fs: ScenarioSettings['disk']['fs']): Promise<CycleRecord> {
    const server = { doublewrite, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '64M', redoSize: '96M' };
    const disk = { atomicUnit, fs, trigger: { kind: 'armed', pendingPageWrites: 16 } as const, journalMaxBytes: 256 << 20, sizeBytes: 512 << 20 };
    const settings: ScenarioSettings = {
      name: `${kind}-${name}`,
      runtime: kind,
      ...(kind === 'docker' ? { image } : {}),
      server,
      disk,
      load: { kind: 'builtin', connections: 4, tables: 4, rows: 5000, maxSeconds: 150 },
      expect: defaultExpectation(server, disk),
    };
    const runtime = runtimes[kind];
    const { server: binary, version } = await runtime.describe();
    const dir = join(work, settings.name);
    const r = await runCycle({
      id: settings.name, settings, cycle: 1, seed: 5, expectation: settings.expect, dir,
      cacheRoot: join(work, 'cache'), runtime, serverVersion: `${binary} ${version}`, repro: `rig repro ${dir}`,
    });
    t.comment(`${r.id}: ${r.verdict}, ${r.tornPagesBefore.length} torn; ${r.reason}`);
    return r;
  }

  /** What the scenario is about: recovered, never torn, or torn pages reproduced. */
  function verdictClass(r: CycleRecord): string {
    if (r.verdict === 'rig-error') return `rig-error: ${r.error}`;
    if (r.expectation === 'torn-reproduced') return r.tornPagesBefore.length > 0 ? 'torn' : 'blind';
    const page0 = r.tornPagesBefore.some((p) => p.page === 0 && p.validAfter === false);
    return r.expectationHeld || page0 ? 'as expected' : `contradicted (${r.verdict})`;
  }

  for (const [name, dw, unit, fs] of headline) {
    t.test(`${name}: docker and local agree`, async (t) => {
      const docker = await cycle('docker', name, dw, unit, fs);
      const local = await cycle('local', name, dw, unit, fs);
      t.not(docker.verdict, 'rig-error', `the docker cycle ran: ${docker.reason}`);
      t.equal(verdictClass(docker), verdictClass(local), `same verdict class (docker ${docker.verdict}, local ${local.verdict})`);
    });
  }
}
