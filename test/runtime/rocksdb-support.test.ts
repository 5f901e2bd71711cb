/**
 * Whether a server has RocksDB, from its `--help --verbose` with the plugin named
 * (rig/runtime/rocksdb-support.ts), and the one line a scenario gets when it has none. The probe
 * outputs are cut from real runs: Debian bookworm's MariaDB 10.11 without mariadb-plugin-rocksdb,
 * and MariaDB 11.8 in powercut-rig/mariadb-offline:11.8.
 */
import t from 'tap';
import { DEFAULT_SERVER } from '../../rig/defaults.js';
import { missingRocksdb, readRocksdbProbe } from '../../rig/runtime/rocksdb-support.js';
import type { ServerRuntime } from '../../rig/runtime/types.js';

const WITHOUT = `2026-11-30 17:22:15 0 [ERROR] mariadbd: Can't open shared library '/usr/lib/mysql/plugin/ha_rocksdb.so' (errno: 2, cannot open shared object file: No such file or directory)
2026-11-30 17:22:15 0 [ERROR] Couldn't load plugins from 'ha_rocksdb.so'.
mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)
  --console           Write error output on screen; don't remove the console
`;
const WITH = `mariadbd  Ver 11.8.9-MariaDB-0+deb13u1 for debian-linux-gnu on x86_64 (Debian 13)
  --rocksdb-access-hint-on-compaction-start=#
                      DBOptions::access_hint_on_compaction_start for RocksDB
`;

t.test('the plugin loaded only where its options are listed', async (t) => {
  t.notOk(readRocksdbProbe(WITHOUT));
  t.ok(readRocksdbProbe(WITH));
  t.notOk(readRocksdbProbe('rocksdb-access-hint=1'), 'an option line, not a mention');
});

/** A runtime that only answers whether it has RocksDB: nothing here starts a server. */
const runtime = (has: boolean, imageTag?: string): ServerRuntime => ({
  name: imageTag ? 'docker' : 'local',
  ...(imageTag ? { imageTag } : {}),
  describe: async () => ({ server: 'mariadbd', version: '10.11.19-MariaDB-0+deb12u1' }),
  hasRocksdb: async () => has,
  initialize: async () => undefined,
  start: async () => {
    throw new Error('not started in this test');
  },
});

t.test('one line ending with the fix, only for RocksDB scenarios on a server without it', async (t) => {
  const rocksdb = { ...DEFAULT_SERVER, engine: 'rocksdb' as const };
  t.equal(await missingRocksdb(DEFAULT_SERVER, runtime(false), '10.11.19-MariaDB'), null, 'innodb asks nothing');
  t.equal(await missingRocksdb(rocksdb, runtime(true), '11.8.9-MariaDB'), null);
  const local = await missingRocksdb(rocksdb, runtime(false), 'mariadbd 10.11.19-MariaDB-0+deb12u1');
  t.equal(local, "engine: rocksdb needs MariaDB's RocksDB plugin (ha_rocksdb.so), and mariadbd 10.11.19-MariaDB-0+deb12u1 on this host cannot load it: install mariadb-plugin-rocksdb, use runtime: docker with image powercut-rig/mariadb-offline:11.8, or use engine: innodb");
  t.match(await missingRocksdb(rocksdb, runtime(false, 'my/mariadb:11.4'), '11.4.2-MariaDB'), /in image my\/mariadb:11\.4 cannot load it/);
  t.notMatch(local!, /\n/, 'one line');
});
