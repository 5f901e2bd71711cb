/**
 * The offline base images: Debian from debootstrap (minbase), imported as
 * powercut-rig/debian-base:<suite> (bookworm, trixie, sid). The mirror comes from the host's apt
 * sources (the host's own mirror serves a suite it does not list); the Release file's signature is
 * always checked against the host's debian-archive-keyring. The rootfs tarball is cached under the
 * rig's work dir, so a rebuild after `docker rmi` takes seconds.
 */
import type Dockerode from 'dockerode';
import { createReadStream } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm, writeFile, chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { rigFailure } from '../errors.js';
import { chooseMirror, readAptSources, readHostSuite } from './apt-mirror.js';
import { followStream } from './follow-stream.js';
import type { DebianSuite } from './image-catalog.js';
import type { DockerPaths } from './paths.js';
import { unmountUnder } from './process-records.js';

/** The keyring every debootstrap checks the Release signature against (bookworm's verifies trixie and sid too). */
export const ARCHIVE_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

export function baseImage(suite: DebianSuite): string {
  return `powercut-rig/debian-base:${suite}`;
}

export interface BaseBuild {
  docker: Dockerode;
  paths: DockerPaths;
  suite: DebianSuite;
  log: (line: string) => void;
  signal?: AbortSignal;
}

export async function importDebianBase(build: BaseBuild): Promise<void> {
  const tarball = await ensureBaseTarball(build);
  const image = baseImage(build.suite);
  build.log(`importing ${tarball} as ${image}`);
  const [repo, tag] = image.split(':');
  const stream = await build.docker.importImage(createReadStream(tarball), { repo, tag });
  await followStream(build.docker, stream);
}

export function debootstrapArgs(suite: DebianSuite, rootfs: string, mirror: string): string[] {
  return ['--variant=minbase', '--force-check-gpg', `--keyring=${ARCHIVE_KEYRING}`, suite, rootfs, mirror];
}

async function ensureBaseTarball(build: BaseBuild): Promise<string> {
  const { suite } = build;
  const tarball = join(build.paths.cacheDir, `debian-${suite}-minbase.tar`);
  if (await access(tarball).then(() => true, () => false)) {
    build.log(`debootstrap tarball cached: ${tarball}`);
    return tarball;
  }
  const mirror = chooseMirror(await readAptSources(), suite, await readHostSuite());
  if (!mirror) throw rigFailure(`no Debian mirror in this host's apt sources (/etc/apt) to bootstrap ${suite} from: add one, or use a registry image`);
  await mkdir(build.paths.buildDir, { recursive: true });
  await mkdir(build.paths.cacheDir, { recursive: true });
  const rootfs = await mkdtemp(join(build.paths.buildDir, 'rootfs-'));
  try {
    await debootstrap(rootfs, mirror.uri, build);
    await writeFile(join(rootfs, 'etc/apt/sources.list'), mirror.sourcesList);
    await rm(join(rootfs, 'etc/apt/sources.list.d/debian.sources'), { force: true }); // trixie's and sid's own deb822 file
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
  await access(ARCHIVE_KEYRING).catch(() => {
    throw rigFailure(`${ARCHIVE_KEYRING} is missing, so no Release signature can be checked: apt-get install debian-archive-keyring`);
  });
  build.log(`debootstrap ${build.suite} from ${mirror}, signatures checked with ${ARCHIVE_KEYRING} (minutes)`);
  const run = await execa('debootstrap', debootstrapArgs(build.suite, rootfs, mirror), {
    reject: false,
    all: true,
    cancelSignal: build.signal,
  });
  if (run.exitCode !== 0) {
    const last = String(run.all ?? '').trim().split('\n').pop();
    throw rigFailure(`debootstrap ${build.suite} from ${mirror} failed: ${last}`);
  }
}

async function removeDebs(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.endsWith('.deb')) await rm(join(dir, name), { force: true });
  }
}
