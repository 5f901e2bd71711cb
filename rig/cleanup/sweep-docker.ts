/**
 * Sweeps what the docker runtime left when the rig was killed: every container carrying the rig's
 * labels whose owning rig process is gone (on each engine that answers), then the rig's own
 * dockerd and its containerd, once the process that last claimed that engine is gone.
 */
import { access } from 'node:fs/promises';
import type { SweepOutcome, SweepScope } from '../../faults/sweep-disks.js';
import { dockerAt, pingEngine } from '../docker/engine.js';
import { ownEngineClaimed, stopOwnEngine } from '../docker/own-engine.js';
import { readPid } from '../docker/process-records.js';
import { dockerPaths } from '../docker/paths.js';
import { OWNER_LABEL, RUN_LABEL, removeContainer } from '../runtime/docker-container.js';
import { ownerAlive, readOwner } from '../process-owner.js';

export interface DockerSweepScope extends SweepScope {
  workDir: string; // the rig's work dir, where its own engine lives
  /** DOCKER_HOST when set; else the system engine's socket. */
  engineAddress?: string;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Removes the rig's containers on `address` whose owner is gone; one line each. */
async function sweepContainersOf(address: string, out: SweepOutcome): Promise<void> {
  const docker = dockerAt(address);
  const found = await docker.listContainers({ all: true, filters: { label: [RUN_LABEL] } });
  for (const info of found) {
    const owner = readOwner(info.Labels[OWNER_LABEL]);
    if (owner && ownerAlive(owner)) continue;
    const name = info.Names[0]?.replace(/^\//, '') ?? info.Id.slice(0, 12);
    try {
      await removeContainer(docker.getContainer(info.Id));
      const whose = owner ? `its rig process ${owner.pid} is gone` : 'it names no owner';
      out.removed.push(`removed container ${name} (${info.State}; ${whose})`);
    } catch (error) {
      out.problems.push(`container ${name}: ${(error as Error).message}`);
    }
  }
}

export async function sweepDocker(scope: DockerSweepScope): Promise<SweepOutcome> {
  const out: SweepOutcome = { removed: [], kept: [], problems: [] };
  const paths = dockerPaths(scope.workDir);
  const addresses = [scope.engineAddress ?? '/var/run/docker.sock'];
  if (await exists(paths.socketPath)) addresses.push(paths.socketPath);
  for (const address of addresses) {
    if (await pingEngine(address)) await sweepContainersOf(address, out);
  }
  if (await ownEngineClaimed(paths)) return out; // a live rig run uses it, and stops it itself
  const recorded = [await readPid(paths.pidFile), await readPid(paths.spawnRecord), await readPid(paths.containerdPidFile)];
  if (!recorded.some((pid) => pid !== null) && !(await exists(paths.socketPath))) return out;
  const report = await stopOwnEngine(paths);
  for (const pid of report.dockerd) out.removed.push(`stopped the rig's dockerd pid ${pid} (${paths.root})`);
  if (report.containerd !== null) out.removed.push(`stopped its containerd pid ${report.containerd}`);
  if (report.shims) out.removed.push(`killed ${report.shims} orphaned containerd shim${report.shims === 1 ? '' : 's'}`);
  for (const point of report.unmounted) out.removed.push(`unmounted ${point}`);
  return out;
}
