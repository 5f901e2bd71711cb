/**
 * A docker campaign killed with SIGKILL mid-cycle leaves its server container, the rig's own
 * dockerd and containerd, the disk's mounts, loop device and helper behind (nothing of it can
 * clean up). `rig cleanup` must take all of it away, and a second `rig cleanup` find nothing.
 */
// runs alone: its killed campaign must have started the rig's own dockerd, which `rig cleanup` then stops
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextFromEnv } from '../../rig/context.js';
import { dockerAt, pingEngine } from '../../rig/docker/engine.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { RUN_LABEL } from '../../rig/runtime/docker-container.js';
import { ensureBuilt, leftoversUnder, processesNaming, rig } from '../fixtures/rig-cli.js';

const image = 'powercut-rig/mariadb-offline:10.11';
const work = mkdtempSync(join(tmpdir(), 'rig-sigkill-docker-'));
const { workDir, dockerHost } = contextFromEnv();
const engineAddress = dockerHost ?? '/var/run/docker.sock';
const paths = dockerPaths(workDir);
t.teardown(async () => {
  await rig(['cleanup']); // whatever a failed assertion left
  rmSync(work, { recursive: true, force: true });
});

/** The rig's containers on whichever engine answers: the system's, or the rig's own. */
async function rigContainers(): Promise<{ name: string; state: string }[]> {
  for (const address of [engineAddress, paths.socketPath]) {
    if (!(await pingEngine(address))) continue;
    const found = await dockerAt(address).listContainers({ all: true, filters: { label: [RUN_LABEL] } });
    return found.map((c) => ({ name: c.Names[0] ?? c.Id, state: c.State }));
  }
  return [];
}

/** Processes of the rig's own engine: dockerd, containerd and its shims name the engine's roots. */
const engineProcesses = () => processesNaming(paths.root);

t.before(ensureBuilt);

t.test('the offline image is built (or was already)', async (t) => {
  const built = await rig(['images', 'build', '--offline', '--image', 'mariadb-offline'], {}, { timeout: 900_000 });
  t.equal(built.exitCode, 0, String(built.stderr));
  t.same(engineProcesses(), [], 'rig images build stopped the engine it started');
});

t.test('SIGKILL mid-cycle, then rig cleanup: no container, engine, server, mount or loop device left', async (t) => {
  const file = join(work, 'docker.yml');
  writeFileSync(
    file,
    `name: docker-sigkill
defaults:
  runtime: docker
  image: ${image}
  server: {bufferPool: 32M, redoSize: 48M}
  disk: {size: 256M}
  load: {rows: 2000, maxSeconds: 120}
scenarios:
  - {name: dw-on, cycles: 3}
`,
  );
  const out = join(work, 'out');
  const child = rig(['campaign', file, '--out', out], { RIG_CACHE: join(work, 'cache') });
  // mid-cycle: the load's server container runs on the power-fail disk
  const deadline = Date.now() + 300_000;
  let running: { name: string; state: string }[] = [];
  while (Date.now() < deadline && child.exitCode === null) {
    const onDisk = leftoversUnder(out).some((l) => l.startsWith('mount '));
    running = (await rigContainers().catch(() => [])).filter((c) => c.state === 'running' && c.name.includes('-server-'));
    if (onDisk && running.length) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.equal(child.exitCode, null, 'the campaign was still running');
  t.ok(running.length, 'a server container was running');
  child.kill('SIGKILL');
  t.equal((await child).signal, 'SIGKILL');

  const left = leftoversUnder(out);
  t.ok(left.some((l) => l.startsWith('mount ')) && left.some((l) => l.startsWith('loop device ')), `the disk is left: ${left.join('; ')}`);
  t.ok((await rigContainers()).length > 0, 'its containers are left');
  const engineLeft = !dockerHost && !(await pingEngine('/var/run/docker.sock'));
  if (engineLeft) t.ok(engineProcesses().length > 0, "the rig's own dockerd is left");

  const first = await rig(['cleanup']);
  t.equal(first.exitCode, 0, String(first.stderr));
  const lines = String(first.stdout).split('\n');
  t.ok(lines.some((l) => /^removed container powercut-rig-\S+-server-\S+ \(running; its rig process \d+ is gone\)$/.test(l)), first.stdout);
  if (engineLeft) t.ok(lines.some((l) => l.startsWith("stopped the rig's dockerd pid ")), first.stdout);
  t.ok(lines.some((l) => l.startsWith('detached /dev/loop')), first.stdout);
  t.ok(lines.some((l) => /^stopped helper pid \d+ of /.test(l)), first.stdout);

  t.same(leftoversUnder(out), [], 'no mount, loop device, helper or server names the campaign folder');
  t.same(engineProcesses(), [], 'no dockerd, containerd or shim of the rig');
  t.same(await rigContainers(), [], 'no container of the rig on an engine that answers');
  const second = await rig(['cleanup']);
  t.equal(second.exitCode, 0);
  t.equal(second.stdout, 'nothing to clean');
});
