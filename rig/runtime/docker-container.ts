/**
 * Server containers: the create options every container of the rig gets (run and owner labels, no network,
 * no capabilities, the datadir and run dir bind-mounted, the image's entrypoint bypassed), a
 * run-to-completion helper for one-shot tools, and a quiet remove.
 */
import type Dockerode from 'dockerode';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentOwner, formatOwner } from '../process-owner.js';

export const RUN_LABEL = 'powercut-rig.run';
export const ROLE_LABEL = 'powercut-rig.role';
/** The rig process that made the container (PID:STARTTIME): a sweep removes it once that is gone. */
export const OWNER_LABEL = 'powercut-rig.owner';
/** Where the bind mounts appear inside the container. */
export const CONTAINER_DATADIR = '/var/lib/mysql'; // also covers the images' VOLUME: no anonymous volume
export const CONTAINER_RUNDIR = '/run/powercut';

export interface ContainerPlan {
  image: string;
  runId: string;
  role: 'install' | 'server' | 'probe';
  command: string[]; // argv[0] replaces the entrypoint
  user: string; // uid:gid
  datadir?: string;
  runDir?: string;
}

export function containerOptions(plan: ContainerPlan): Dockerode.ContainerCreateOptions {
  const binds: string[] = [];
  if (plan.datadir) binds.push(`${plan.datadir}:${CONTAINER_DATADIR}`);
  if (plan.runDir) binds.push(`${plan.runDir}:${CONTAINER_RUNDIR}`);
  const suffix = Math.random().toString(36).slice(2, 8);
  return {
    name: `powercut-rig-${plan.runId}-${plan.role}-${suffix}`,
    Image: plan.image,
    Entrypoint: plan.command.slice(0, 1),
    Cmd: plan.command.slice(1),
    User: plan.user,
    Labels: { [RUN_LABEL]: plan.runId, [ROLE_LABEL]: plan.role, [OWNER_LABEL]: formatOwner(currentOwner()) },
    // a server, started for every cycle and state, has no network at all: the engine then adds no
    // network hook to its start (a second dockerd process per container, about a fifth of a MariaDB
    // 11.8 crash recovery's CPU here); it listens on its socket only. The datadir's initialiser
    // keeps the engine's hosts file: mariadb-install-db 10.11 looks the container's name up with
    // resolveip and stops when it cannot
    ...(plan.role === 'server' ? { NetworkDisabled: true } : {}),
    HostConfig: {
      NetworkMode: 'none',
      Binds: binds,
      CapDrop: ['ALL'],
      CapAdd: [],
      SecurityOpt: ['no-new-privileges'],
    },
  };
}

/** Removes a container and its anonymous volumes; a container already gone is fine. */
export async function removeContainer(container: Dockerode.Container): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await container.remove({ force: true, v: true });
      return;
    } catch (error) {
      const code = (error as { statusCode?: number }).statusCode;
      if (code === 404) return;
      if (code !== 409 || attempt === 2) throw error; // 409: removal already in progress
      await sleep(500);
    }
  }
}

/** stdout and stderr of a container without a TTY, from the engine's multiplexed frames. */
export function demuxLogs(buffer: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= buffer.length) {
    const size = buffer.readUInt32BE(at + 4);
    parts.push(buffer.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

export async function containerOutput(container: Dockerode.Container): Promise<string> {
  const raw = await container.logs({ stdout: true, stderr: true, follow: false }).catch(() => Buffer.alloc(0));
  return demuxLogs(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)));
}

export interface Completed {
  exitCode: number | null; // null when it did not finish within the bound
  output: string;
}

/** Creates, starts and waits (bounded) for a one-shot container; always removes it. */
export async function runToCompletion(
  docker: Dockerode,
  plan: ContainerPlan,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Completed> {
  const container = await docker.createContainer(containerOptions(plan));
  try {
    await container.start();
    const timer = new AbortController(); // ends the bound once the container is done
    const stop = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
    const bound = sleep(timeoutMs, null, { signal: stop }).catch(() => null);
    const waited = container.wait().then((r: { StatusCode: number }) => r.StatusCode);
    const exitCode = await Promise.race([waited, bound]).finally(() => timer.abort());
    return { exitCode, output: await containerOutput(container) };
  } finally {
    await removeContainer(container);
  }
}
