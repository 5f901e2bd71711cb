/**
 * The image `--runtime docker` runs when none is named: of the images `rig images build` makes for
 * the host server's flavour (MariaDB or MySQL), the one built most recently. With none built, a
 * one-line error names the command that builds one.
 */
import type Dockerode from 'dockerode';
import { IMAGE_CATALOG } from '../docker/image-catalog.js';
import { badInput } from '../errors.js';
import type { ServerFlavor } from '../results/server-identity.js';

export interface ChosenImage {
  tag: string;
  created: string; // ISO time the engine says it was built
}

export function flavorOfImage(tag: string): ServerFlavor {
  return /mysql/i.test(tag) ? 'mysql' : 'mariadb';
}

/** The newest built catalog image of `flavor` (any flavour when null). */
export async function chooseDefaultImage(docker: Dockerode, flavor: ServerFlavor | null): Promise<ChosenImage> {
  const candidates = IMAGE_CATALOG.filter((spec) => flavor === null || flavorOfImage(spec.tag) === flavor);
  const built: ChosenImage[] = [];
  for (const spec of candidates) {
    const info = await docker.getImage(spec.tag).inspect().catch(() => null);
    if (info) built.push({ tag: spec.tag, created: info.Created });
  }
  built.sort((a, b) => b.created.localeCompare(a.created));
  if (built[0]) return built[0];
  const offline = candidates.find((spec) => spec.offline);
  const build = offline ? `--offline --image ${offline.name}` : `--image ${candidates[0]?.name ?? 'mariadb-offline'}`;
  const whose = flavor ? ` for the host's server (${flavor})` : '';
  throw badInput(`no --image given and no image${whose} is built: run rig images build ${build}, or name one with --image`);
}
