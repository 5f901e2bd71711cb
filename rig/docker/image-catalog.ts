/**
 * The server images the rig knows how to build: one folder under images/ each. Registry images
 * start FROM the upstream image; the offline one starts FROM the debootstrap base.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { badInput } from '../errors.js';

export interface ImageSpec {
  name: string; // the folder under images/, and what `--image` takes
  tag: string; // what the runtime's `image` names
  offline: boolean; // buildable with no registry (from the debootstrap base)
}

export const IMAGE_CATALOG: readonly ImageSpec[] = [
  { name: 'mariadb-offline', tag: 'powercut-rig/mariadb-offline:10.11', offline: true },
  { name: 'mariadb-10.11', tag: 'powercut-rig/mariadb:10.11', offline: false },
  { name: 'mariadb-11.4', tag: 'powercut-rig/mariadb:11.4', offline: false },
  { name: 'mysql-8.0', tag: 'powercut-rig/mysql:8.0', offline: false },
  { name: 'mysql-8.4', tag: 'powercut-rig/mysql:8.4', offline: false },
];

/** A catalog entry by its name or its tag. */
export function findImageSpec(nameOrTag: string): ImageSpec | undefined {
  return IMAGE_CATALOG.find((spec) => spec.name === nameOrTag || spec.tag === nameOrTag);
}

export function requireImageSpec(nameOrTag: string): ImageSpec {
  const spec = findImageSpec(nameOrTag);
  if (spec) return spec;
  const names = IMAGE_CATALOG.map((s) => s.name).join(', ');
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
