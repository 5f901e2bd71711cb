/**
 * Finds the host's MySQL-family server: mariadbd first, then mysqld, in PATH, /usr/sbin and
 * /usr/libexec, and the tool that initialises a datadir for it.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { badInput, rigFailure } from '../errors.js';
import type { ServerFlavor } from '../results/server-identity.js';

export interface ServerBinary {
  path: string;
  flavor: ServerFlavor;
  version: string; // e.g. 10.11.19-MariaDB-0+deb12u1
  /** mariadb-install-db for MariaDB; null for MySQL, which initialises with mysqld itself. */
  installDb: string | null;
}

const SERVER_NAMES = ['mariadbd', 'mysqld'];
const INSTALL_DB_NAMES = ['mariadb-install-db', 'mysql_install_db'];
const EXTRA_DIRS = ['/usr/sbin', '/usr/libexec', '/usr/local/sbin', '/usr/bin'];

function searchDirs(): string[] {
  const fromPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...new Set([...fromPath, ...EXTRA_DIRS])];
}

/** The first executable of the given names, trying each name in every directory before the next. */
export function findExecutable(names: string[], dirs = searchDirs()): string | null {
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Parses `mariadbd --version` / `mysqld --version` output. */
export function parseServerVersion(output: string): { flavor: ServerFlavor; version: string } {
  const version = /\bVer\s+(\S+)/.exec(output)?.[1] ?? 'unknown';
  return { flavor: /mariadb/i.test(output) ? 'mariadb' : 'mysql', version };
}

/** The host's server, or the binary at `explicit` (a build of one's own: `rig repro --server-binary`). */
export async function findServerBinary(explicit?: string): Promise<ServerBinary> {
  if (explicit !== undefined) {
    try {
      accessSync(explicit, constants.X_OK);
    } catch {
      throw badInput(`--server-binary ${explicit} is not an executable file; give the path of a mariadbd or mysqld`);
    }
  }
  const path = explicit ?? findExecutable(SERVER_NAMES);
  if (!path) {
    throw rigFailure(
      'no mariadbd or mysqld found in PATH, /usr/sbin or /usr/libexec: install mariadb-server (make apt)',
    );
  }
  const result = await execa(path, ['--version'], { reject: false, timeout: 15_000 });
  if (result.failed) throw rigFailure(`${path} --version failed: ${result.stderr || result.message}`);
  const { flavor, version } = parseServerVersion(result.stdout);
  const installDb = flavor === 'mariadb' ? findExecutable(INSTALL_DB_NAMES) : null;
  return { path, flavor, version, installDb };
}
