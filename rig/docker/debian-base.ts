/**
 * The offline base image: Debian bookworm from debootstrap (minbase), imported as
 * powercut-rig/debian-base:bookworm. The mirror comes from the host's apt sources; the rootfs
 * tarball is cached under the rig's work dir, so a rebuild after `docker rmi` takes seconds.
 */
import type Dockerode from 'dockerode';
import { createReadStream } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm, writeFile, chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { rigFailure } from '../errors.js';
import { pickMirror, readAptSources, sourcesListFor } from './apt-mirror.js';
import { followStream } from './follow-stream.js';
import type { DockerPaths } from './paths.js';
import { unmountUnder } from './process-records.js';

export const BASE_SUITE = 'bookworm';
export const BASE_IMAGE = `powercut-rig/debian-base:${BASE_SUITE}`;

export interface BaseBuild {
  docker: Dockerode;
  paths: DockerPaths;
  log: (line: string) => void;
  signal?: AbortSignal;
}

export async function importDebianBase(build: BaseBuild): Promise<void> {
  const tarball = await ensureBaseTarball(build);
  build.log(`importing ${tarball} as ${BASE_IMAGE}`);
  const [repo, tag] = BASE_IMAGE.split(':');
  const stream = await build.docker.importImage(createReadStream(tarball), { repo, tag });
  await followStream(build.docker, stream);
}

async function ensureBaseTarball(build: BaseBuild): Promise<string> {
  const tarball = join(build.paths.cacheDir, `debian-${BASE_SUITE}-minbase.tar`);
  if (await access(tarball).then(() => true, () => false)) {
    build.log(`debootstrap tarball cached: ${tarball}`);
    return tarball;
  }
  const entries = await readAptSources();
  const mirror = pickMirror(entries, BASE_SUITE);
  if (!mirror) throw rigFailure(`no ${BASE_SUITE} mirror in this host's apt sources (/etc/apt): add one, or use a registry image`);
  await mkdir(build.paths.buildDir, { recursive: true });
  await mkdir(build.paths.cacheDir, { recursive: true });
  const rootfs = await mkdtemp(join(build.paths.buildDir, 'rootfs-'));
  try {
    await debootstrap(rootfs, mirror, build);
    await writeFile(join(rootfs, 'etc/apt/sources.list'), sourcesListFor(entries, BASE_SUITE));
    // services never start during an image build
    await writeFile(join(rootfs, 'usr/sbin/policy-rc.d'), '#!/bin/sh\nexit 101\n');
    await chmod(join(rootfs, 'usr/sbin/policy-rc.d'), 0o755);
    await removeDebs(join(rootfs, 'var/cache/apt/archives'));
    await execa('tar', ['-C', rootfs, '-cf', `${tarball}.part`, '.'], { cancelSignal: build.signal });
    await rename(`${tarball}.part`, tarball);
    return tarball;
  } finally {
    await unmountUnder(rootfs); // debootstrap mounts proc and sys inside; never rm through a mount
    await rm(rootfs, { recursive: true, force: true });
    await rm(`${tarball}.part`, { force: true });
  }
}

async function debootstrap(rootfs: string, mirror: string, build: BaseBuild): Promise<void> {
  if ((await execa('sh', ['-c', 'command -v debootstrap'], { reject: false })).exitCode !== 0) {
    build.log('debootstrap is missing: installing it with apt-get');
    await execa('apt-get', ['install', '-y', '-qq', 'debootstrap'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
  }
  build.log(`debootstrap ${BASE_SUITE} from ${mirror} (about a minute)`);
  const run = await execa('debootstrap', ['--variant=minbase', BASE_SUITE, rootfs, mirror], {
    reject: false,
    all: true,
    cancelSignal: build.signal,
  });
  if (run.exitCode !== 0) {
    const last = String(run.all ?? '').trim().split('\n').pop();
    throw rigFailure(`debootstrap ${BASE_SUITE} from ${mirror} failed: ${last}`);
  }
}

async function removeDebs(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.endsWith('.deb')) await rm(join(dir, name), { force: true });
  }
}
