/**
 * The guest's /init (busybox sh, in the initramfs): load the modules, mount the host's root
 * read-only (9p), then the guest's own tmpfs over /tmp, /run and /var/tmp (GUEST_TMPFS_DIRS), then
 * each share at its own path over those: the rig's package root read-only (when the host shares
 * it: it lies under a tmpfs'd folder), then read-write the run folder, the shared folder, the
 * prepared-image cache and the coverage folder (when the host shares it: under tap), so a
 * read-write share inside the package root stays writable. Then it runs the run's command script
 * chrooted into that root, as root, its output on the two virtio ports the host reads, writes the
 * command's exit status to the run folder, and powers the guest off.
 *
 * It is the same for every run (it is part of the cached initramfs): what differs per run comes
 * on the kernel command line (`rig.run=` the run folder, `rig.dir=` the shared folder, `rig.cache=`
 * the cache, `rig.pkg=` the package root, `rig.cov=` the coverage folder; one left out is not
 * mounted) and in the run folder (the command script). Its own messages go to the console,
 * prefixed `rig-guest:`.
 */
import { GUEST_TMPFS_DIRS } from './guest-paths.js';

/** The 9p mount tags of the host's shares (qemu-args.ts gives the same names to qemu). */
export const SHARE_TAGS = { root: 'rig.root', dir: 'rig.dir', run: 'rig.run', cache: 'rig.cache', pkg: 'rig.pkg', cov: 'rig.cov' } as const;
/** The names of the virtio console ports that carry the command's stdout and stderr. */
export const PORT_NAMES = { stdout: 'rig.stdout', stderr: 'rig.stderr' } as const;
/** In the run folder: the script the guest runs, and the file it writes the exit status to. */
export const RUN_FILES = { command: 'command.sh', status: 'status' } as const;
/** Where the host's root is mounted in the initramfs. */
const ROOT = '/newroot';
/** msize: 9p's largest message; the default (8 KiB) makes loading node several times slower. */
const NINEP = 'trans=virtio,version=9p2000.L,msize=512000';

/** The busybox applets /init uses, linked to /bin/busybox in the initramfs. */
export const INIT_APPLETS = ['sh', 'mount', 'insmod', 'mkdir', 'cat', 'chroot', 'sync', 'poweroff', 'echo', 'ls', 'cut', 'dmesg'];

export function guestInit(modules: string[]): string {
  return `#!/bin/sh
export PATH=/bin:/sbin
say() { echo "rig-guest: $* (uptime $(cut -d' ' -f1 /proc/uptime 2>/dev/null))"; }
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
say "init started"
for m in ${modules.join(' ')}; do insmod /lib/modules/$m.ko || say "insmod $m failed"; done
say "modules loaded"
for arg in $(cat /proc/cmdline); do
  case $arg in rig.run=*) RUN=\${arg#rig.run=};; rig.dir=*) DIR=\${arg#rig.dir=};; rig.cache=*) CACHE=\${arg#rig.cache=};; rig.pkg=*) PKG=\${arg#rig.pkg=};; rig.cov=*) COV=\${arg#rig.cov=};; esac
done
R=${ROOT}
mount -t 9p -o ${NINEP},cache=loose,ro ${SHARE_TAGS.root} $R || say "cannot mount the host's root"
mount -t proc proc $R/proc
mount -t sysfs sys $R/sys
mount -t devtmpfs dev $R/dev
mkdir -p $R/dev/shm $R/dev/pts
mount -t tmpfs shm $R/dev/shm
mount -t devpts pts $R/dev/pts
for d in ${GUEST_TMPFS_DIRS.join(' ')}; do mount -t tmpfs tmp $R$d; done
[ -n "$PKG" ] && { mkdir -p $R$PKG; mount -t 9p -o ${NINEP},cache=loose,ro ${SHARE_TAGS.pkg} $R$PKG || say "cannot mount $PKG"; }
mkdir -p $R$RUN $R$DIR $R$CACHE 2>/dev/null
mount -t 9p -o ${NINEP},cache=none ${SHARE_TAGS.run} $R$RUN || say "cannot mount the run folder"
[ -n "$DIR" ] && { mount -t 9p -o ${NINEP},cache=loose ${SHARE_TAGS.dir} $R$DIR || say "cannot mount $DIR"; }
[ -n "$CACHE" ] && { mount -t 9p -o ${NINEP},cache=loose ${SHARE_TAGS.cache} $R$CACHE || say "cannot mount $CACHE"; }
[ -n "$COV" ] && { mkdir -p $R$COV; mount -t 9p -o ${NINEP},cache=none ${SHARE_TAGS.cov} $R$COV || say "cannot mount $COV"; }
for p in /sys/class/virtio-ports/*; do
  case $(cat $p/name) in ${PORT_NAMES.stdout}) OUT=/dev/\${p##*/};; ${PORT_NAMES.stderr}) ERR=/dev/\${p##*/};; esac
done
say "root ready"
if [ -f $R$RUN/${RUN_FILES.command} ] && [ -n "$OUT" ] && [ -n "$ERR" ]; then
  chroot $R /bin/sh $RUN/${RUN_FILES.command} </dev/null >$OUT 2>$ERR
  echo $? > $R$RUN/${RUN_FILES.status}
  say "command exited"
else
  say "no command script or output ports: nothing run"
fi
sync
poweroff -f
`;
}
