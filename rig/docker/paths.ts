/**
 * Where the rig keeps what it owns for Docker: the engine it may start (data root with the image
 * cache, exec root, socket, pid file, log) and the debootstrap tarball cache. All under the rig's
 * work dir, so a cleanup sweep finds them by its own records.
 */
import { join } from 'node:path';

export interface DockerPaths {
  root: string;
  dataRoot: string; // images and containers of the engine the rig starts (kept: the image cache)
  execRoot: string;
  socketPath: string;
  pidFile: string; // written by dockerd
  spawnRecord: string; // the pid the rig spawned, written before dockerd writes its own
  ownerRecord: string; // the rig process using the engine (PID:STARTTIME): a sweep stops it once that is gone
  containerdPidFile: string; // written by the containerd that dockerd manages
  logFile: string;
  cacheDir: string; // debootstrap tarballs
  buildDir: string; // temporary rootfs and build contexts (removed after each build)
}

export function dockerPaths(workDir: string): DockerPaths {
  const root = join(workDir, 'docker');
  const execRoot = join(root, 'exec');
  return {
    root,
    dataRoot: join(root, 'data-root'),
    execRoot,
    socketPath: join(root, 'docker.sock'),
    pidFile: join(root, 'dockerd.pid'),
    spawnRecord: join(root, 'dockerd.rig-pid'),
    ownerRecord: join(root, 'dockerd.owner'),
    containerdPidFile: join(execRoot, 'containerd', 'containerd.pid'),
    logFile: join(root, 'dockerd.log'),
    cacheDir: join(root, 'cache'),
    buildDir: join(root, 'build'),
  };
}
