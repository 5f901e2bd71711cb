/**
 * Where the rig keeps what its guest needs, under its work dir: the Debian kernel package it
 * downloaded, the guest it built from it (kernel and initramfs, one folder per set of inputs), and
 * one folder per running guest (a cleanup sweep finds a killed run's guest by these).
 */
import { join } from 'node:path';

export interface VmPaths {
  root: string;
  kernelDir: string; // the downloaded linux-image-*.deb
  guestsDir: string; // built guests, guests/<key>/{vmlinux,initrd.gz}
  runsDir: string; // runs/<id>/: command script, status, console log, sockets, qemu pid, owner
  buildDir: string; // scratch while building a guest (removed after)
}

export function vmPaths(workDir: string): VmPaths {
  const root = join(workDir, 'vm');
  return {
    root,
    kernelDir: join(root, 'kernel'),
    guestsDir: join(root, 'guests'),
    runsDir: join(root, 'runs'),
    buildDir: join(root, 'build'),
  };
}
