/**
 * Makes sure dockerd is on the host: when it is missing, installs Debian's docker.io with apt-get
 * (the same package `make setup` installs). Only called when the rig is allowed to start an engine.
 */
import { execa } from 'execa';
import { rigFailure } from '../errors.js';

export async function findDockerd(): Promise<string | null> {
  const found = await execa('sh', ['-c', 'command -v dockerd'], { reject: false });
  return found.exitCode === 0 ? found.stdout.trim() : null;
}

export async function ensureDockerd(log: (line: string) => void, signal?: AbortSignal): Promise<string> {
  const existing = await findDockerd();
  if (existing) return existing;
  log('dockerd is missing: installing Debian docker.io with apt-get');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const install = await execa(
    'apt-get',
    ['install', '-y', '-qq', '--no-install-recommends', 'docker.io'],
    { env, reject: false, cancelSignal: signal, all: true },
  );
  const dockerd = await findDockerd();
  if (install.exitCode !== 0 || !dockerd) {
    const last = String(install.all ?? '').trim().split('\n').pop() ?? '';
    throw rigFailure(`could not install docker.io with apt-get (${last || install.shortMessage}): install it by hand`);
  }
  return dockerd;
}
