/**
 * The images the rig knows how to build: one folder under images/ each. Registry images start FROM
 * the upstream image; offline ones start FROM a debootstrap base of their Debian suite (bookworm
 * for MariaDB 10.11, trixie for MariaDB 11.8 and the rig itself, sid for Oracle MySQL 9.7). The
 * server images build from their own folder; the rig's image (docker-compose.yml) from the
 * project's top level, and only when named.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { badInput } from '../errors.js';

/** The Debian suites an offline image can start from. */
export type DebianSuite = 'bookworm' | 'trixie' | 'sid';

interface SpecBase {
  name: string; // the folder under images/, and what `--image` takes
  tag: string; // what the runtime's `image` names
  /** 'project': the build context is the project's top level (.dockerignore applies), and an
   * offline build passes the debootstrap base as the Dockerfile's BASE. */
  context?: 'project';
}

/** Offline images build with no registry, FROM powercut-rig/debian-base:<suite>. */
export type ImageSpec = (SpecBase & { offline: true; suite: DebianSuite }) | (SpecBase & { offline: false });

export const IMAGE_CATALOG: readonly ImageSpec[] = [
  { name: 'mariadb-offline', tag: 'powercut-rig/mariadb-offline:10.11', offline: true, suite: 'bookworm' },
  { name: 'mariadb-11.8', tag: 'powercut-rig/mariadb-offline:11.8', offline: true, suite: 'trixie' },
  { name: 'mysql-9.7', tag: 'powercut-rig/mysql-offline:9.7', offline: true, suite: 'sid' },
  { name: 'rig', tag: 'powercut-rig/rig:latest', offline: true, suite: 'trixie', context: 'project' },
  { name: 'mariadb-10.11', tag: 'powercut-rig/mariadb:10.11', offline: false },
  { name: 'mariadb-11.4', tag: 'powercut-rig/mariadb:11.4', offline: false },
  { name: 'mysql-8.0', tag: 'powercut-rig/mysql:8.0', offline: false },
  { name: 'mysql-8.4', tag: 'powercut-rig/mysql:8.4', offline: false },
];

/** A catalog entry by its name or its tag. */
export function findImageSpec(nameOrTag: string): ImageSpec | undefined {
  return IMAGE_CATALOG.find((spec) => spec.name === nameOrTag || spec.tag === nameOrTag);
}

/** The catalog names `--image` takes: the offline ones only, with --offline. */
export function imageNames(offline: boolean): string[] {
  return IMAGE_CATALOG.filter((spec) => !offline || spec.offline).map((spec) => spec.name);
}

/** An entry by name or tag; with `offline`, only one that builds with no registry. */
export function requireImageSpec(nameOrTag: string, offline = false): ImageSpec {
  const spec = findImageSpec(nameOrTag);
  if (spec && (spec.offline || !offline)) return spec;
  const names = imageNames(offline).join(', ');
  if (spec) throw badInput(`image "${nameOrTag}" needs a registry and cannot be built with --offline: pick one of ${names}, or drop --offline`);
  throw badInput(`unknown image "${nameOrTag}": pick one of ${names}`);
}

/** The project's images/ folder, from the source tree or from dist/. */
export function imagesDir(): string {
  for (const up of ['../../images/', '../../../images/']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(`${dir}mariadb-offline/Dockerfile`)) return dir;
  }
  throw new Error('images/ folder not found next to the rig');
}
