/**
 * What `rig images list` shows: every catalog image with whether the engine has it (its size and
 * when it was built), then the debootstrap bases the offline images start from.
 */
import type Dockerode from 'dockerode';
import { baseImage } from './debian-base.js';
import { IMAGE_CATALOG, type DebianSuite } from './image-catalog.js';

export interface ListedImage {
  name: string; // catalog name, or `base` for a debootstrap base
  tag: string;
  source: string; // 'offline (trixie)', 'registry', 'debootstrap'
  built: { bytes: number; created: string } | null;
}

async function inspect(docker: Dockerode, tag: string): Promise<ListedImage['built']> {
  const info = await docker.getImage(tag).inspect().catch(() => null);
  return info ? { bytes: info.Size, created: info.Created } : null;
}

export async function listImages(docker: Dockerode): Promise<ListedImage[]> {
  const listed: ListedImage[] = [];
  for (const spec of IMAGE_CATALOG) {
    const source = spec.offline ? `offline (${spec.suite})` : 'registry';
    listed.push({ name: spec.name, tag: spec.tag, source, built: await inspect(docker, spec.tag) });
  }
  const suites = [...new Set(IMAGE_CATALOG.flatMap((spec) => (spec.offline ? [spec.suite] : [])))] as DebianSuite[];
  for (const suite of suites) {
    listed.push({ name: 'base', tag: baseImage(suite), source: 'debootstrap', built: await inspect(docker, baseImage(suite)) });
  }
  return listed;
}

/** One aligned line per image: name, tag, source, then its size and date or "not built". */
export function formatImageList(images: ListedImage[]): string[] {
  const width = (pick: (i: ListedImage) => string) => Math.max(...images.map((i) => pick(i).length));
  const [w1, w2, w3] = [width((i) => i.name), width((i) => i.tag), width((i) => i.source)];
  return images.map((i) => {
    const state = i.built ? `built, ${(i.built.bytes / 1e6).toFixed(0)} MB, ${i.built.created.slice(0, 19).replace('T', ' ')}` : 'not built';
    return `${i.name.padEnd(w1)}  ${i.tag.padEnd(w2)}  ${i.source.padEnd(w3)}  ${state}`;
  });
}
