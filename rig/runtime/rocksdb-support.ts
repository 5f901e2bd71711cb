/**
 * Whether a server can run the load's tables on RocksDB: MariaDB with its ha_rocksdb plugin. The
 * server is asked with the plugin named and `--help --verbose`, which loads the plugin without
 * starting anything (no datadir is read) and lists its options; a server without the library says
 * "Can't open shared library '.../ha_rocksdb.so'" and lists none.
 */
import type { ServerSettings } from '../results/types.js';
import type { ServerRuntime } from './types.js';

export const ROCKSDB_PROBE_ARGS = ['--no-defaults', '--plugin-load-add=ha_rocksdb', '--help', '--verbose'];

/** The probe's output lists the plugin's options (--rocksdb-...) only when the plugin loaded. */
export function readRocksdbProbe(output: string): boolean {
  return /^\s+--rocksdb-\w/m.test(output);
}

/** Why the runtime's server cannot run these settings' RocksDB tables (one line ending with the fix), or null. */
export async function missingRocksdb(settings: ServerSettings, runtime: ServerRuntime, version: string): Promise<string | null> {
  if (settings.engine !== 'rocksdb' || (await runtime.hasRocksdb())) return null;
  const where = runtime.imageTag ? `in image ${runtime.imageTag}` : 'on this host';
  return (
    `engine: rocksdb needs MariaDB's RocksDB plugin (ha_rocksdb.so), and ${version} ${where} cannot load it: install mariadb-plugin-rocksdb, use runtime: docker with image powercut-rig/mariadb-offline:11.8, or use engine: innodb`
  );
}
