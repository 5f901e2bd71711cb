/**
 * Which of the host's paths the guest's command sees. The guest mounts the host's root read-only,
 * then its own empty tmpfs over /tmp, /run and /var/tmp (GUEST_TMPFS_DIRS), then its shares at
 * their own paths over those: the rig's package root (only when it lies under one of those and no
 * other share holds it), the run folder, the shared folder and the prepared-image cache (and under
 * tap the coverage folder, guest-coverage.ts). So a host path under a tmpfs'd folder is there in
 * the guest only inside one of those shares; an absolute path the command names that is not is
 * refused before the guest boots.
 */
import { isAbsolute, posix } from 'node:path';

/** The folders the guest's /init covers with its own tmpfs (guest-init.ts). */
export const GUEST_TMPFS_DIRS = ['/tmp', '/run', '/var/tmp'] as const;

/** `path` is `folder` or lies below it (both absolute). */
export function isInside(path: string, folder: string): boolean {
  const p = posix.normalize(path);
  const f = posix.normalize(folder).replace(/(.)\/$/, '$1');
  return p === f || p.startsWith(f === '/' ? '/' : `${f}/`);
}

/** The tmpfs'd folder `path` lies below (not the folder itself, which the guest has, empty). */
export function tmpfsFolderOf(path: string): string | undefined {
  return GUEST_TMPFS_DIRS.find((dir) => isInside(path, dir) && posix.normalize(path).replace(/\/$/, '') !== dir);
}

/** The package root to share with the guest: only when its tmpfs would hide it and no other share
 * (the shared folder, the cache) holds it already. */
export function packageShare(packageRoot: string, sharedDir: string, cacheDir: string): string | undefined {
  if (!tmpfsFolderOf(packageRoot)) return undefined;
  return [sharedDir, cacheDir].some((dir) => isInside(packageRoot, dir)) ? undefined : packageRoot;
}

/** The absolute paths an argument names: itself, or the value of `--flag=/path`. */
function pathsNamedBy(arg: string): string[] {
  if (isAbsolute(arg)) return [arg];
  const value = /^-[^=]*=(\/.*)$/.exec(arg)?.[1];
  return value ? [value] : [];
}

/**
 * The absolute paths in `argv` the guest would not see: below a tmpfs'd folder and in none of
 * `shared` (the shared folder, the cache, the package root). Words inside a longer argument (an
 * `sh -c` script) are the command's own business: such a script may use /tmp as the guest's.
 */
export function pathsLostInGuest(argv: readonly string[], shared: readonly string[]): string[] {
  return argv.flatMap(pathsNamedBy).filter((path) => tmpfsFolderOf(path) && !shared.some((dir) => isInside(path, dir)));
}

/** The one line that refuses a command naming such paths: which, why, and the fix. */
export function lostPathsProblem(lost: readonly string[]): string {
  const folders = [...new Set(lost.map((path) => tmpfsFolderOf(path)!))].join(', ');
  const them = lost.length > 1 ? 'them' : 'it';
  return `${lost.join(', ')}: not seen in the guest, which mounts its own empty tmpfs on ${folders}; ` +
    `move ${them} under --dir, or outside ${GUEST_TMPFS_DIRS.slice(0, -1).join(', ')} and ${GUEST_TMPFS_DIRS.at(-1)}`;
}
