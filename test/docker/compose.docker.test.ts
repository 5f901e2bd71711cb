/**
 * The rig run as docker-compose.yml runs it: `docker compose run --rm rig campaign ...` against an
 * engine this test starts, with the rig's image built offline (once; the engine's data root keeps
 * it). One cycle on each runtime: the local one inside the rig's container (Debian trixie's
 * MariaDB 11.8, not the host's), the docker one through the host's engine. Then a compose run
 * killed mid-cycle with `docker kill`, and `rig cleanup` on the host taking away what it left.
 * The test's project folder stands in for the project's top level (--project-directory): its
 * campaigns/ and reports/ are the ones the compose file mounts. What a killed earlier run of this
 * test left in its own project folder is cleaned first.
 */
// runs alone: it counts every server container on the engine, and its `rig cleanup` must find only what its killed container left
import t from 'tap';
import { loadResults } from '../../rig/results/load-results.js';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { contextFromEnv } from '../../rig/context.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import { outcomeExitCode } from '../../rig/results/summarize.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { RUN_LABEL } from '../../rig/runtime/docker-container.js';
import { currentOwner, formatOwner, ownerAlive, readOwner } from '../../rig/process-owner.js';
import { loopBackingFile, mountsAtOrBelow } from '../../faults/system.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { ensureBuilt, plainEnv, processesNaming, rig } from '../fixtures/rig-cli.js';

// The first run builds the rig's image from nothing (debootstrap, apt, npm: minutes); later runs
// find it in the engine's data root and take a minute or less.
t.setTimeout(1_200_000);

const { workDir, cacheRoot } = contextFromEnv();
const OWNER_FILE = 'owner'; // the test process that made a project folder (pid:start time)
const SHARED_FILE = 'shared-mounts'; // the folders it bound on themselves, a line each

/**
 * What an earlier run of this test left when it was killed with its engine (a cut-off CI job): its
 * disk stays mounted in its project folder and recorded in that folder's own registry, which the
 * host's `rig cleanup` (make test's first step) does not read. Each such folder whose test process
 * is gone is cleaned with its own registry and run folders, its binds undone, and removed.
 */
async function sweepKilledRuns(): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('rig-compose-'))) {
    const dir = join(tmpdir(), name);
    const owner = existsSync(join(dir, OWNER_FILE)) ? readOwner(readFileSync(join(dir, OWNER_FILE), 'utf8')) : null;
    if (!owner || ownerAlive(owner)) continue;
    const swept = await rig(['cleanup'], { RIG_REGISTRY_DIR: join(dir, 'registry'), TMPDIR: join(dir, 'run') });
    t.comment(`an earlier run's ${dir}: ${String(swept.stdout).split('\n').join('; ')}`);
    const binds = existsSync(join(dir, SHARED_FILE)) ? readFileSync(join(dir, SHARED_FILE), 'utf8').split('\n').filter(Boolean) : [];
    for (const bound of binds.reverse()) await execa('umount', ['-l', bound], { reject: false });
    if (mountsAtOrBelow(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
}
await sweepKilledRuns();

const project = mkdtempSync(join(tmpdir(), 'rig-compose-'));
writeFileSync(join(project, OWNER_FILE), formatOwner(currentOwner()));
const projectName = `rig-compose-${process.pid}`;
const registry = join(project, 'registry');
const runDirs = join(project, 'run');
for (const dir of ['campaigns', 'reports', 'registry', 'run']) mkdirSync(join(project, dir));
mkdirSync(cacheRoot, { recursive: true });

/** rshared binds need their source on a shared mount: a folder bound on itself and made shared. */
const shared: string[] = [];
async function shareMount(dir: string): Promise<void> {
  const found = await execa('findmnt', ['-n', '-o', 'PROPAGATION', '--mountpoint', dir], { reject: false });
  if (found.stdout.trim().startsWith('shared')) return;
  appendFileSync(join(project, SHARED_FILE), `${dir}\n`); // before the bind: a kill between leaves it named
  await execa('mount', ['--bind', dir, dir]);
  shared.push(dir);
  await execa('mount', ['--make-rshared', dir]);
}

const engine = await useDockerEngine(t, `compose-test-${process.pid}`);
t.teardown(async () => {
  await rig(['cleanup'], cleanupEnv()); // whatever a failed assertion left
  for (const dir of shared.reverse()) await execa('umount', ['-l', dir], { reject: false });
  rmSync(project, { recursive: true, force: true });
});

const socket = engine?.socketPath ?? '/var/run/docker.sock';
/** The environment `docker compose` reads: the engine, and the folders the compose file shares. */
const composeEnv = () =>
  plainEnv({ DOCKER_HOST: `unix://${socket}`, DOCKER_SOCKET: socket, PWD: project, RIG_SHARED_TMP: runDirs, RIG_REGISTRY_DIR: registry, RIG_CACHE: cacheRoot });
/** `rig cleanup` on the host, reading the same registry and run folders as the compose runs. */
const cleanupEnv = () => ({ DOCKER_HOST: `unix://${socket}`, RIG_REGISTRY_DIR: registry, TMPDIR: runDirs });

function compose(args: string[]) {
  const file = join(PACKAGE_ROOT, 'docker-compose.yml');
  return execa('docker', ['compose', '-f', file, '--project-directory', project, '-p', projectName, 'run', '--rm', 'rig', ...args], {
    cwd: project,
    env: composeEnv(),
    extendEnv: false,
    reject: false,
    timeout: 600_000,
  });
}

function writeCampaign(name: string, cycles: number, rows: number, scenarios: string): string {
  writeFileSync(
    join(project, 'campaigns', `${name}.yml`),
    `name: ${name}
seed: 7
defaults:
  cycles: ${cycles}
  server: {pageSize: 16k, bufferPool: 32M, redoSize: 48M, doublewrite: off}
  disk: {fs: ext4, trigger: armed 16, size: 256M, atomic: 4k, fates: {tear: 1}}
  load: {kind: builtin, connections: 4, tables: 4, rows: ${rows}, maxSeconds: 60}
evidence: {maxBytes: 1G}
scenarios:
${scenarios}`,
  );
  return `campaigns/${name}.yml`;
}

const rigContainers = async () =>
  (await engine!.docker.listContainers({ all: true, filters: { label: [RUN_LABEL] } })).map((c) => ({ name: c.Names[0] ?? c.Id, state: c.State }));

/** The loop devices the registry's records name that are still attached. */
function recordedLoops(): string[] {
  const records = existsSync(registry) ? readdirSync(registry).filter((n) => n.endsWith('.json')) : [];
  return records
    .map((n) => (JSON.parse(readFileSync(join(registry, n), 'utf8')) as { loopDevice: string | null }).loopDevice)
    .filter((dev): dev is string => !!dev && loopBackingFile(dev) !== null);
}

t.before(ensureBuilt);

if (engine) {
  t.test('the compose plugin answers, and the rig image is built offline (or was already)', async (t) => {
    const version = await execa('docker', ['compose', 'version'], { reject: false });
    t.match(version.stdout, /^Docker Compose version v?2\./, 'make setup installs the plugin');
    const started = Date.now();
    const built = await buildImages({ docker: engine.docker, paths: dockerPaths(workDir), names: ['rig', 'mariadb-11.8'], offline: true, log: (l) => t.comment(l) });
    t.comment(`images: ${built.map((b) => `${b.tag} ${b.status} in ${(b.ms / 1000).toFixed(1)} s`).join(', ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const info = await engine.docker.getImage('powercut-rig/rig:latest').inspect();
    t.comment(`powercut-rig/rig:latest: ${(info.Size / 1e6).toFixed(0)} MB`);
    await shareMount(project);
    await shareMount(cacheRoot);
  });

  t.test('docker compose run --rm rig campaign: one cycle on each runtime, results and report in ./reports', async (t) => {
    const file = writeCampaign('compose-one', 1, 2000, `  - {name: local-dw-off-4k, runtime: local}
  - {name: docker-dw-off-4k, runtime: docker, image: mariadb-11.8}
`);
    const started = Date.now();
    const run = await compose(['campaign', file]);
    t.comment(`docker compose run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const results = (await loadResults(join(project, 'reports/latest'))).results;
    // a negative control with one cycle passes when that cycle's cut tore a page: the outcome follows the cycles
    t.equal(run.exitCode, outcomeExitCode(results.outcome), `exit code follows the outcome ${results.outcome}: ${run.stdout}\n${run.stderr}`);
    t.match(run.stdout, new RegExp(`^compose-one: ${results.outcome} \\(2 cycles\\)$`, 'm'));
    t.match(run.stdout, new RegExp(`^report: ${project}/reports/latest/index\\.html$`, 'm'));
    t.equal(results.outcome, results.cycles.every((c) => c.tornPagesBefore.length > 0) ? 'pass' : 'fail', 'pass exactly when both controls tore a page');
    t.match(results.environment.serverVersion, /^11\.8\./, "the local runtime ran the container's MariaDB 11.8 (the host has 10.11)");
    t.not(results.environment.hostname, (await execa('hostname')).stdout.trim(), 'the campaign ran in the container');
    t.same(results.cycles.map((c) => [c.id, c.settings.runtime]), [['local-dw-off-4k-1', 'local'], ['docker-dw-off-4k-1', 'docker']]);
    for (const cycle of results.cycles) {
      t.not(cycle.verdict, 'rig-error', `${cycle.id}: ${cycle.verdict}: ${cycle.reason}`);
      t.ok(cycle.tornPagesBefore.length === 0 || cycle.expectationHeld, `${cycle.id}: ${cycle.tornPagesBefore.length} torn pages; a torn page holds the negative control, whatever the server did`);
      t.ok(cycle.reconciliation?.ok, `${cycle.id}: the scan agrees with the disk's record`);
      t.match(cycle.server?.version, /^mariadbd 11\.8\./);
    }
    const html = readFileSync(join(project, 'reports/latest/index.html'), 'utf8');
    t.match(html, /compose-one/);
    const dockerPage = readFileSync(join(project, 'reports/latest/index-cycles/cycle-docker-dw-off-4k-1.html'), 'utf8');
    t.match(dockerPage, `data-verdict="${results.cycles[1]!.verdict}"`, 'the report shows the docker cycle\'s verdict on its page');
    t.match(html, /local-dw-off-4k-1/);
    t.match(html, /docker-dw-off-4k-1/);
    t.ok(existsSync(join(project, 'reports/latest/junit.xml')));

    t.same(mountsAtOrBelow(project).filter((m) => m !== project), [], 'no mount left under the project folder');
    t.same(processesNaming(project), [], 'no helper or server left');
    t.same(recordedLoops(), [], 'no loop device left');
    t.same(await rigContainers(), [], 'no server container left');
  });

  t.test('docker kill mid-cycle, then rig cleanup on the host: no container, mount, loop device, helper or server left', async (t) => {
    const file = writeCampaign('compose-kill', 3, 20000, `  - {name: docker-dw-off-4k, runtime: docker, image: mariadb-11.8}
`);
    const out = join(project, 'reports/kill');
    const child = compose(['campaign', file, '--out', 'reports/kill']);
    const deadline = Date.now() + 300_000;
    let running: { name: string; state: string }[] = [];
    while (Date.now() < deadline && child.exitCode === null) {
      const onDisk = mountsAtOrBelow(out).some((m) => m.endsWith('/cut/mnt'));
      running = (await rigContainers().catch(() => [])).filter((c) => c.state === 'running' && c.name.includes('-server-'));
      if (onDisk && running.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t.equal(child.exitCode, null, 'the campaign was still running');
    t.ok(running.length, 'its server container was running on the power-fail disk');
    const [rigContainer] = await engine.docker.listContainers({ filters: { label: [`com.docker.compose.project=${projectName}`, 'com.docker.compose.service=rig'] } });
    t.ok(rigContainer, "the rig's container");
    await engine.docker.getContainer(rigContainer!.Id).kill();
    const ended = await child;
    t.equal(ended.exitCode, 137, 'docker compose run ends with the killed container');

    t.ok(mountsAtOrBelow(out).some((m) => m.endsWith('/cut/mnt')), "the disk's filesystem is left mounted on the host");
    t.ok(mountsAtOrBelow(out).some((m) => m.endsWith('/cut/fuse')), "the disk's FUSE mount is left on the host");
    t.equal(recordedLoops().length, 1, 'its loop device is left attached');
    t.ok((await rigContainers()).some((c) => c.name.includes('-server-')), 'its server container is left');
    t.same(processesNaming(project).filter((p) => /pfdisk|node /.test(p)), [], 'the helper and the rig died with the container');

    const first = await rig(['cleanup'], cleanupEnv());
    t.equal(first.exitCode, 0, String(first.stderr));
    const lines = String(first.stdout).split('\n');
    t.ok(lines.some((l) => /^removed container powercut-rig-\S+-server-\S+ \(\w+; its rig process \d+ is gone\)$/.test(l)), first.stdout);
    t.ok(lines.some((l) => /^detached \/dev\/loop\d+ \(was on .*\/cut\/fuse\/disk\)$/.test(l)), first.stdout);
    t.ok(lines.some((l) => l.startsWith('unmounted ') && l.endsWith('/cut/mnt')), first.stdout);

    t.same(mountsAtOrBelow(project).filter((m) => m !== project), [], 'no mount left');
    t.same(recordedLoops(), [], 'no loop device left');
    t.same(readdirSync(registry), [], 'no disk record left');
    t.same(processesNaming(project), [], 'no helper, server or rig process left');
    t.same(await rigContainers(), [], 'no server container left');
    t.same(await engine.docker.listContainers({ all: true, filters: { label: [`com.docker.compose.project=${projectName}`] } }), [], 'no rig container left');
    const second = await rig(['cleanup'], cleanupEnv());
    t.equal(second.exitCode, 0);
    t.equal(second.stdout, 'nothing to clean');
  });
}
