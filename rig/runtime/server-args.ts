/**
 * The server's command line for one datadir: no option files, unix socket only, and the InnoDB
 * settings of the scenario plus those that keep a crash test honest (every commit flushed).
 */
import { FLUSH_METHODS, PAGE_SIZES, type ServerSettings } from '../results/types.js';
import { badInput } from '../errors.js';
import type { ServerFlavor } from './find-server-binary.js';

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

/** The InnoDB settings, as options both the server and the datadir initialiser accept. */
export function innodbArgs(settings: ServerSettings): string[] {
  validateServerSettings(settings);
  return [
    `--innodb-page-size=${settings.pageSize}`,
    `--innodb-doublewrite=${settings.doublewrite ? 'ON' : 'OFF'}`,
    `--innodb-flush-method=${settings.flushMethod}`,
    `--innodb-buffer-pool-size=${settings.bufferPool}`,
    `--innodb-log-file-size=${settings.redoSize}`,
    '--innodb-flush-log-at-trx-commit=1', // an acknowledged commit is on disk: the ledger relies on it
    // Keep the page cleaner flushing steadily, so batches of page writes are in flight (and the
    // armed cut finds them) within seconds of load rather than at the next checkpoint.
    '--innodb-max-dirty-pages-pct=5',
    '--innodb-max-dirty-pages-pct-lwm=1',
    '--innodb-io-capacity=2000',
    '--innodb-buffer-pool-load-at-startup=OFF',
    '--innodb-buffer-pool-dump-at-shutdown=OFF',
  ];
}

/** `--user=root` is required to run the server as root, and refused otherwise. */
function userArgs(): string[] {
  return process.getuid?.() === 0 ? ['--user=root'] : [];
}

/** The full command line; `--no-defaults` must come first. The error log goes to stderr. */
export function serverArgs(layout: ServerLayout, settings: ServerSettings, flavor: ServerFlavor): string[] {
  const args = [
    '--no-defaults',
    `--datadir=${layout.datadir}`,
    `--socket=${layout.socketPath}`,
    '--skip-networking',
    `--pid-file=${layout.pidFile}`,
    `--tmpdir=${layout.tmpdir}`,
    '--skip-log-bin',
    ...userArgs(),
    ...innodbArgs(settings),
  ];
  if (flavor === 'mysql') args.push('--mysqlx=OFF'); // X plugin would open its own socket in /var/run
  return args;
}

/** The datadir initialiser's command line (mariadb-install-db, or mysqld --initialize-insecure). */
export function initializeArgs(datadir: string, settings: ServerSettings, flavor: ServerFlavor): string[] {
  if (flavor === 'mysql') {
    return ['--no-defaults', '--initialize-insecure', `--datadir=${datadir}`, ...userArgs(), ...innodbArgs(settings)];
  }
  return [
    '--no-defaults',
    `--datadir=${datadir}`,
    '--auth-root-authentication-method=normal', // root@localhost, no password: the rig's only user
    '--skip-test-db',
    ...userArgs(),
    ...innodbArgs(settings),
  ];
}
