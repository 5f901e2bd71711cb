/**
 * The server's command line for one datadir: no option files, unix socket only, and the InnoDB
 * settings of the scenario plus those that keep a crash test honest (every commit flushed). The
 * settings map to the options the server in use accepts (rig/results/server-identity.ts).
 */
import { FLUSH_METHODS, PAGE_SIZES, type ServerSettings } from '../results/types.js';
import { badInput } from '../errors.js';
import { hasDoublewriteFast, isMysql8030, type ServerIdentity } from '../results/server-identity.js';

const SIZE = /^\d+[kmg]?$/i;

export interface ServerLayout {
  datadir: string;
  socketPath: string;
  pidFile: string; // the server's own pid file
  tmpdir: string;
}

/** Throws bad input for settings the server would reject or misread. */
export function validateServerSettings(settings: ServerSettings): void {
  if (!PAGE_SIZES.includes(settings.pageSize)) {
    throw badInput(`page size ${settings.pageSize} is not one of ${PAGE_SIZES.join(', ')} bytes`);
  }
  if (!FLUSH_METHODS.includes(settings.flushMethod)) {
    throw badInput(`flush method ${settings.flushMethod} is not one of ${FLUSH_METHODS.join(', ')}`);
  }
  for (const [name, value] of [['buffer pool', settings.bufferPool], ['redo size', settings.redoSize]]) {
    if (!SIZE.test(value ?? '')) throw badInput(`${name} "${value}" is not a size such as 64M or 1G`);
  }
}

/** Why this server cannot run these settings (one line ending with the fix), or null. */
export function unsupportedSetting(settings: ServerSettings, server: ServerIdentity): string | null {
  if (settings.doublewrite === 'fast' && !hasDoublewriteFast(server)) {
    return `doublewrite: fast needs MariaDB 11.0.6, 11.1.5, 11.2.4, 11.4.2 or later (innodb_doublewrite=fast); this server is ${server.version}: use doublewrite: on, or an 11.x image such as powercut-rig/mariadb-offline:11.8`;
  }
  const dw = settings.doublewrite;
  if ((dw === 'detect-only' || dw === 'detect-and-recover') && !isMysql8030(server)) {
    return `doublewrite: ${dw} needs MySQL 8.0.30 or later (innodb_doublewrite=${dw.toUpperCase().replace(/-/g, '_')}); this server is ${server.version}: use doublewrite: on or off, or a MySQL image such as powercut-rig/mysql-offline:9.7`;
  }
  if (settings.engine === 'rocksdb' && server.flavor !== 'mariadb') {
    return `engine: rocksdb needs MariaDB with its RocksDB plugin (ha_rocksdb.so, Debian's mariadb-plugin-rocksdb); this server is ${server.version}: use engine: innodb, or an image such as powercut-rig/mariadb-offline:11.8`;
  }
  const method = settings.flushMethod.toLowerCase();
  if (hasDoublewriteFast(server) && (method === 'littlesync' || method === 'nosync')) {
    return `flush method ${settings.flushMethod} is gone in ${server.version} (innodb_flush_method is deprecated there): use fsync, O_DSYNC, O_DIRECT or O_DIRECT_NO_FSYNC`;
  }
  return null;
}

const onOff = (on: boolean) => (on ? 'ON' : 'OFF');

/** innodb_doublewrite's value where the server takes more than ON and OFF. */
function doublewriteValue(settings: ServerSettings): string {
  const dw = settings.doublewrite;
  return typeof dw === 'string' ? dw.toUpperCase().replace(/-/g, '_') : onOff(dw);
}

/**
 * Doublewrite and flushing. Up to MariaDB 10.11 (and MySQL): innodb_doublewrite ON/OFF (MySQL
 * 8.0.30+ also DETECT_ONLY, DETECT_AND_RECOVER) and innodb_flush_method. Where innodb_doublewrite=fast exists, innodb_flush_method is deprecated:
 * the rig passes what the server itself maps it to (measured on 11.8.9) —
 *   fsync      data files buffered
 *   O_DSYNC    data files unbuffered and write-through, ib_logfile0 write-through
 *   O_DIRECT   data files unbuffered
 *   O_DIRECT_NO_FSYNC  as O_DIRECT, and doublewrite ON becomes fast (MDEV-33545)
 */
export function durabilityArgs(settings: ServerSettings, server: ServerIdentity): string[] {
  const problem = unsupportedSetting(settings, server);
  if (problem) throw badInput(problem);
  const dw = settings.doublewrite;
  if (!hasDoublewriteFast(server)) {
    return [`--innodb-doublewrite=${doublewriteValue(settings)}`, `--innodb-flush-method=${settings.flushMethod}`];
  }
  const method = settings.flushMethod.toLowerCase();
  const fast = dw === 'fast' || (dw === true && method === 'o_direct_no_fsync');
  return [
    `--innodb-doublewrite=${fast ? 'fast' : onOff(dw !== false)}`,
    `--innodb-data-file-buffering=${onOff(method === 'fsync')}`,
    `--innodb-data-file-write-through=${onOff(method === 'o_dsync')}`,
    `--innodb-log-file-write-through=${onOff(method === 'o_dsync')}`,
  ];
}

/** The redo log's size: one file's size, or MySQL 8.0.30+'s total capacity of #innodb_redo. */
function redoSizeArg(settings: ServerSettings, server: ServerIdentity): string {
  return isMysql8030(server) ? `--innodb-redo-log-capacity=${settings.redoSize}` : `--innodb-log-file-size=${settings.redoSize}`;
}

/**
 * Eager flushing keeps the page cleaner flushing steadily, so batches of page writes are in flight
 * (and the armed cut finds them) within seconds of load rather than at the next checkpoint. Stock
 * leaves the server's defaults, which a measurement of doublewrite's cost should run with.
 */
export function flushingArgs(settings: ServerSettings): string[] {
  if (settings.flushing === 'stock') return [];
  return ['--innodb-max-dirty-pages-pct=5', '--innodb-max-dirty-pages-pct-lwm=1', '--innodb-io-capacity=2000'];
}

/** The InnoDB settings, as options both the server and the datadir initialiser accept. */
export function innodbArgs(settings: ServerSettings, server: ServerIdentity): string[] {
  validateServerSettings(settings);
  return [
    `--innodb-page-size=${settings.pageSize}`,
    ...durabilityArgs(settings, server),
    `--innodb-buffer-pool-size=${settings.bufferPool}`,
    redoSizeArg(settings, server),
    '--innodb-flush-log-at-trx-commit=1', // an acknowledged commit is on disk: the ledger relies on it
    ...flushingArgs(settings),
    '--innodb-buffer-pool-load-at-startup=OFF',
    '--innodb-buffer-pool-dump-at-shutdown=OFF',
  ];
}

/**
 * MyRocks: the plugin, forced (a plugin that fails to initialise would otherwise leave a server
 * that starts without it, its tables unknown), and every commit synced to RocksDB's write-ahead
 * log (its default, named so the ledger's claim does not rest on a default). The WAL recovery
 * mode stays the server's default (1, absolute consistency, in 11.8.9). Memtables of 8 MiB and at
 * most 32 MiB of log files keep memtable flushes (SST writes) in flight within seconds of load,
 * and the disk from filling: with the defaults (64 MiB memtables, logs unbounded) the log files
 * of 30 s of load filled a 512 MiB disk here before a single SST was written.
 */
export function rocksdbArgs(settings: ServerSettings): string[] {
  if (settings.engine !== 'rocksdb') return [];
  return [
    '--plugin-load-add=ha_rocksdb',
    '--rocksdb=FORCE',
    '--rocksdb-flush-log-at-trx-commit=1',
    '--rocksdb-default-cf-options=write_buffer_size=8m',
    '--rocksdb-max-total-wal-size=32M',
  ];
}

/**
 * MariaDB's MyISAM key cache and Aria page cache, each 128 MiB by default, are set up (their block
 * descriptors written) at every start: about 0.08 s of CPU of a start's 0.28 s here. The rig keeps
 * no MyISAM or Aria table of its own (the system tables are Aria and small), so both are the least
 * that works. MySQL's key cache is 8 MiB and it has no Aria.
 */
export function cacheArgs(server: ServerIdentity): string[] {
  if (server.flavor === 'mysql') return [];
  return ['--key-buffer-size=64K', '--aria-pagecache-buffer-size=1M'];
}

/**
 * MariaDB 11.4+ makes itself a self-signed TLS certificate at every start when none is configured:
 * its key took about a fifth of a MariaDB 11.8.9 crash recovery's CPU here. The rig's clients
 * connect over the socket without TLS, so MariaDB starts without it (10.11 makes none; the option
 * is the same). MySQL keeps its own: its certificates are made once, in the datadir.
 */
export function tlsArgs(server: ServerIdentity): string[] {
  return server.flavor === 'mariadb' ? ['--skip-ssl'] : [];
}

/** `--user=root` is required to run the server as root, and refused otherwise. */
function userArgs(): string[] {
  return process.getuid?.() === 0 ? ['--user=root'] : [];
}

/** The full command line; `--no-defaults` must come first. The error log goes to stderr. */
export function serverArgs(layout: ServerLayout, settings: ServerSettings, server: ServerIdentity): string[] {
  const args = [
    '--no-defaults',
    `--datadir=${layout.datadir}`,
    `--socket=${layout.socketPath}`,
    '--skip-networking',
    `--pid-file=${layout.pidFile}`,
    `--tmpdir=${layout.tmpdir}`,
    '--skip-log-bin',
    ...userArgs(),
    ...innodbArgs(settings, server),
    ...rocksdbArgs(settings),
    ...cacheArgs(server),
    ...tlsArgs(server),
  ];
  if (server.flavor === 'mysql') {
    args.push('--mysqlx=OFF'); // X plugin would open its own socket in /var/run
    // MySQL logs errors and warnings only by default: its crash recovery, the pages it restores
    // from the doublewrite files and the checkpoint it starts from are notes
    args.push('--log-error-verbosity=3');
    // NUMA interleaving (on by default where built in) needs CAP_SYS_NICE in a container; loose:
    // a build without NUMA support does not know the option
    args.push('--loose-innodb-numa-interleave=OFF');
    // the Performance Schema (on by default in MySQL, off in MariaDB) sets up its instruments at
    // every start: about a quarter of a crash recovery's CPU here. It keeps statistics in memory
    // and writes nothing to disk; nothing the rig checks reads it
    args.push('--performance-schema=OFF');
  }
  return args;
}

/** The datadir initialiser's command line (mariadb-install-db, or mysqld --initialize-insecure). */
export function initializeArgs(datadir: string, settings: ServerSettings, server: ServerIdentity): string[] {
  if (server.flavor === 'mysql') {
    return ['--no-defaults', '--initialize-insecure', `--datadir=${datadir}`, ...userArgs(), ...innodbArgs(settings, server)];
  }
  return [
    '--no-defaults',
    `--datadir=${datadir}`,
    '--auth-root-authentication-method=normal', // root@localhost, no password: the rig's only user
    '--skip-test-db',
    ...userArgs(),
    ...innodbArgs(settings, server),
  ];
}
