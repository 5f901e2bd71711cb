/**
 * What the docker runtime needs to know about a server image: its flavor and the binaries to run.
 * The rig's own images say so in labels; an unlabelled image (e.g. mysql:8.4 pulled by hand) is
 * guessed from its name. A missing image is bad input: the user named it.
 */
import type Dockerode from 'dockerode';
import { badInput } from '../errors.js';
import { findImageSpec } from '../docker/image-catalog.js';
import type { ServerFlavor } from '../results/server-identity.js';

export interface ServerImage {
  image: string;
  flavor: ServerFlavor;
  server: string; // mariadbd or mysqld
  installer: string; // mariadb-install-db, or mysqld (with --initialize-insecure)
}

export async function inspectServerImage(docker: Dockerode, image: string): Promise<ServerImage> {
  const info = await docker.getImage(image).inspect().catch((error: { statusCode?: number }) => {
    if (error.statusCode === 404) throw badInput(missingImageMessage(image));
    throw error;
  });
  const labels = info.Config?.Labels ?? {};
  const flavor: ServerFlavor = (labels['powercut-rig.flavor'] ?? (/mysql/i.test(image) ? 'mysql' : 'mariadb')) === 'mysql'
    ? 'mysql'
    : 'mariadb';
  const server = labels['powercut-rig.server'] ?? (flavor === 'mysql' ? 'mysqld' : 'mariadbd');
  return { image, flavor, server, installer: flavor === 'mysql' ? server : 'mariadb-install-db' };
}

function missingImageMessage(image: string): string {
  const spec = findImageSpec(image);
  const fix = spec
    ? `build it with: rig images build --image ${spec.name}${spec.offline ? ' --offline' : ''}`
    : 'pull or build it first';
  return `image ${image} is not in the Docker engine: ${fix}`;
}
