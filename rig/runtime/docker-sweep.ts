/**
 * Finds and removes the rig's stray containers (every one carries the run label), e.g. after the
 * rig was killed mid-cycle. With a run id, only that run's.
 */
import type Dockerode from 'dockerode';
import { RUN_LABEL, removeContainer } from './docker-container.js';

export async function sweepContainers(docker: Dockerode, runId?: string): Promise<string[]> {
  const label = runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL;
  const found = await docker.listContainers({ all: true, filters: { label: [label] } });
  for (const info of found) await removeContainer(docker.getContainer(info.Id));
  return found.map((info) => info.Names[0]?.replace(/^\//, '') ?? info.Id);
}
