/**
 * Which server a runtime runs, from its version string ("10.11.19-MariaDB-0+deb12u1",
 * "mariadbd 11.8.9-MariaDB-0+deb13u1", "8.4.3", "9.7.4-2"), and what that server accepts: the
 * settings map to different options across releases (rig/runtime/server-args.ts).
 */
/** The two families of servers the rig knows: their options, files and recovery rules differ. */
export type ServerFlavor = 'mariadb' | 'mysql';

export interface ServerIdentity {
  flavor: ServerFlavor;
  version: string; // as the server printed it
}

export interface ReleaseNumber {
  major: number;
  minor: number;
  patch: number;
}

/** The server a version string names: MariaDB when it says so, else MySQL. */
export function serverIdentity(version: string): ServerIdentity {
  return { flavor: /mariadb/i.test(version) ? 'mariadb' : 'mysql', version };
}

export function releaseOf(version: string): ReleaseNumber | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : null;
}

/**
 * The first patch release of each MariaDB 11.x series with innodb_doublewrite=fast (MDEV-33545,
 * April 2024); every series after 11.4 has it from its start. 11.3 never got it.
 */
const FAST_SINCE: Record<number, number> = { 0: 6, 1: 5, 2: 4, 4: 2 };

/**
 * MariaDB with innodb_doublewrite=OFF|ON|fast, where innodb_flush_method is deprecated and the
 * server maps it to innodb_data_file_buffering/_write_through, innodb_log_file_write_through and
 * (O_DIRECT_NO_FSYNC with doublewrite ON) innodb_doublewrite=fast.
 */
export function hasDoublewriteFast(server: ServerIdentity): boolean {
  const r = releaseOf(server.version);
  if (server.flavor !== 'mariadb' || !r || r.major < 11) return false;
  if (r.major > 11 || r.minor > 4) return true;
  const since = FAST_SINCE[r.minor];
  return since !== undefined && r.patch >= since;
}

/** MySQL 8.0.30 or later (or any later series): `r` at least major.minor.patch. */
function atLeast(r: ReleaseNumber, major: number, minor: number, patch: number): boolean {
  if (r.major !== major) return r.major > major;
  if (r.minor !== minor) return r.minor > minor;
  return r.patch >= patch;
}

/**
 * MySQL 8.0.30+: the redo log is `#innodb_redo/#ib_redoN`, sized by innodb_redo_log_capacity
 * (innodb_log_file_size is deprecated there and gone in 9.x), and innodb_doublewrite takes
 * DETECT_ONLY and DETECT_AND_RECOVER besides ON and OFF.
 */
export function isMysql8030(server: ServerIdentity): boolean {
  const r = releaseOf(server.version);
  return server.flavor === 'mysql' && r !== null && atLeast(r, 8, 0, 30);
}
