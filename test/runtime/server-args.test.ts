import t from 'tap';
import { RigError } from '../../rig/errors.js';
import { durabilityArgs, initializeArgs, innodbArgs, serverArgs, unsupportedSetting, validateServerSettings } from '../../rig/runtime/server-args.js';
import type { FlushMethod, ServerSettings } from '../../rig/results/types.js';
import { hasDoublewriteFast, serverIdentity } from '../../rig/results/server-identity.js';

const settings: ServerSettings = { engine: 'innodb', doublewrite: false, flushMethod: 'O_DIRECT', pageSize: 4096, bufferPool: '64M', redoSize: '96M' };
const mariadb1011 = serverIdentity('10.11.19-MariaDB-0+deb12u1');
const mariadb118 = serverIdentity('11.8.9-MariaDB-0+deb13u1');
const mysql = serverIdentity('8.4.3');
const layout = { datadir: '/m/data', socketPath: '/r/mysqld.sock', pidFile: '/r/mysqld.pid', tmpdir: '/r' };

t.test('page flushing: eager unless stock is asked for, and stock leaves the server its own defaults', async (t) => {
  const eager = ['--innodb-max-dirty-pages-pct=5', '--innodb-max-dirty-pages-pct-lwm=1', '--innodb-io-capacity=2000'];
  for (const given of [settings, { ...settings, flushing: 'eager' as const }]) {
    const args = innodbArgs(given, mariadb1011);
    t.same(eager.filter((a) => args.includes(a)), eager, `${given.flushing ?? 'absent'}: eager`);
  }
  const stock = innodbArgs({ ...settings, flushing: 'stock' }, mysql);
  t.same(stock.filter((a) => /max-dirty|io-capacity/.test(a)), [], 'stock: no flushing option');
  t.ok(stock.includes('--innodb-flush-log-at-trx-commit=1'), 'stock: commits still durable');
});

t.test('server command line: no option files, socket only, the scenario and honest flushing', async (t) => {
  const args = serverArgs(layout, settings, mariadb1011);
  t.equal(args[0], '--no-defaults', 'must come first');
  for (const arg of [
    '--datadir=/m/data', '--socket=/r/mysqld.sock', '--skip-networking', '--innodb-page-size=4096',
    '--innodb-doublewrite=OFF', '--innodb-flush-method=O_DIRECT', '--innodb-buffer-pool-size=64M',
    '--innodb-log-file-size=96M', '--innodb-flush-log-at-trx-commit=1',
  ]) t.ok(args.includes(arg), arg);
  t.notOk(args.some((a) => a.startsWith('--log-error')), 'the log goes to stderr, which the runtime files');
  t.ok(serverArgs(layout, settings, mysql).includes('--mysqlx=OFF'));
  t.notOk(args.includes('--mysqlx=OFF'));
});

t.test('MariaDB starts without TLS (11.4+ would make a certificate at every start); MySQL keeps its own', async (t) => {
  for (const server of [mariadb1011, mariadb118]) t.ok(serverArgs(layout, settings, server).includes('--skip-ssl'), server.version);
  t.notOk(serverArgs(layout, settings, serverIdentity('9.7.4-2')).includes('--skip-ssl'), 'MySQL makes its certificates once, in the datadir');
  t.notOk(initializeArgs('/m/data', settings, mariadb118).includes('--skip-ssl'), 'the initialiser listens to no one');
});

t.test('MariaDB starts with the least MyISAM key cache and Aria page cache; MySQL keeps its own', async (t) => {
  for (const server of [mariadb1011, mariadb118]) {
    const args = serverArgs(layout, settings, server);
    t.ok(args.includes('--key-buffer-size=64K') && args.includes('--aria-pagecache-buffer-size=1M'), server.version);
  }
  t.same(serverArgs(layout, settings, mysql).filter((a) => /key-buffer|aria/.test(a)), [], 'MySQL has no Aria');
});

t.test('initialisation fixes the page size', async (t) => {
  t.ok(initializeArgs('/m/data', settings, mariadb1011).includes('--innodb-page-size=4096'));
  t.ok(initializeArgs('/m/data', settings, mysql).includes('--initialize-insecure'));
});

t.test('rejects settings the server would refuse, as bad input', async (t) => {
  const bad: Array<Partial<ServerSettings>> = [{ pageSize: 12288 }, { flushMethod: 'O_SYNC' as FlushMethod }, { bufferPool: '64 MB' }, { redoSize: '' }];
  for (const change of bad) {
    t.throws(() => validateServerSettings({ ...settings, ...change }), RigError, JSON.stringify(change));
  }
  t.doesNotThrow(() => validateServerSettings({ ...settings, flushMethod: 'fsync', bufferPool: '1G' }));
});

t.test('engine rocksdb: the plugin forced, every commit synced to its log; MariaDB only', async (t) => {
  const rocksdb: ServerSettings = { ...settings, engine: 'rocksdb' };
  const args = serverArgs(layout, rocksdb, mariadb118);
  for (const arg of ['--plugin-load-add=ha_rocksdb', '--rocksdb=FORCE', '--rocksdb-flush-log-at-trx-commit=1']) t.ok(args.includes(arg), arg);
  t.notOk(args.some((a) => /rocksdb-wal-recovery-mode/.test(a)), "the log's recovery mode is the server's default");
  t.notOk(serverArgs(layout, settings, mariadb118).some((a) => /rocksdb/.test(a)), 'innodb loads no plugin');
  t.notOk(initializeArgs('/m/data', rocksdb, mariadb118).some((a) => /rocksdb/.test(a)), 'the datadir is initialised without it');
  t.equal(unsupportedSetting(rocksdb, mariadb118), null);
  t.equal(unsupportedSetting(rocksdb, mariadb1011), null, 'a 10.11 with the plugin installed runs it: the runtime is asked');
  t.match(unsupportedSetting(rocksdb, serverIdentity('9.7.4-2')), /^engine: rocksdb needs MariaDB with its RocksDB plugin .*this server is 9\.7\.4-2: use engine: innodb, or an image such as powercut-rig\/mariadb-offline:11\.8$/);
});

t.test('which servers have innodb_doublewrite=fast (and the flushing booleans)', async (t) => {
  const cases: [string, boolean][] = [
    ['10.11.19-MariaDB-0+deb12u1', false], ['11.0.5-MariaDB', false], ['11.0.6-MariaDB', true], ['11.1.4-MariaDB', false],
    ['11.1.5-MariaDB', true], ['11.2.4-MariaDB', true], ['11.3.2-MariaDB', false], ['11.4.1-MariaDB', false],
    ['11.4.2-MariaDB', true], ['11.8.9-MariaDB-0+deb13u1', true], ['12.0.2-MariaDB', true], ['8.4.3', false], ['9.7.4', false],
  ];
  for (const [version, fast] of cases) t.equal(hasDoublewriteFast(serverIdentity(version)), fast, version);
  t.equal(serverIdentity('mariadbd 11.8.9-MariaDB-0+deb13u1').flavor, 'mariadb');
  t.equal(serverIdentity('8.4.3').flavor, 'mysql');
});

t.test('MariaDB 11.8: flush methods map to what the server derives from them, never the deprecated option', async (t) => {
  const cases: [ServerSettings['doublewrite'], FlushMethod, string[]][] = [
    [true, 'O_DIRECT', ['--innodb-doublewrite=ON', '--innodb-data-file-buffering=OFF', '--innodb-data-file-write-through=OFF', '--innodb-log-file-write-through=OFF']],
    [true, 'O_DIRECT_NO_FSYNC', ['--innodb-doublewrite=fast', '--innodb-data-file-buffering=OFF', '--innodb-data-file-write-through=OFF', '--innodb-log-file-write-through=OFF']],
    [false, 'O_DIRECT_NO_FSYNC', ['--innodb-doublewrite=OFF', '--innodb-data-file-buffering=OFF', '--innodb-data-file-write-through=OFF', '--innodb-log-file-write-through=OFF']],
    ['fast', 'O_DIRECT', ['--innodb-doublewrite=fast', '--innodb-data-file-buffering=OFF', '--innodb-data-file-write-through=OFF', '--innodb-log-file-write-through=OFF']],
    [true, 'fsync', ['--innodb-doublewrite=ON', '--innodb-data-file-buffering=ON', '--innodb-data-file-write-through=OFF', '--innodb-log-file-write-through=OFF']],
    [false, 'O_DSYNC', ['--innodb-doublewrite=OFF', '--innodb-data-file-buffering=OFF', '--innodb-data-file-write-through=ON', '--innodb-log-file-write-through=ON']],
  ];
  for (const [doublewrite, flushMethod, expected] of cases) {
    const args = durabilityArgs({ ...settings, doublewrite, flushMethod }, mariadb118);
    t.same(args, expected, `${String(doublewrite)} + ${flushMethod}`);
  }
  t.notOk(serverArgs(layout, settings, mariadb118).some((a) => a.startsWith('--innodb-flush-method')), 'no deprecated option');
  t.same(durabilityArgs({ ...settings, doublewrite: true, flushMethod: 'O_DIRECT_NO_FSYNC' }, mariadb1011),
    ['--innodb-doublewrite=ON', '--innodb-flush-method=O_DIRECT_NO_FSYNC'], '10.11 keeps innodb_flush_method');
});

t.test('doublewrite: fast on a server without it is bad input, one line naming the fix', async (t) => {
  for (const server of [mariadb1011, mysql]) {
    const error = t.throws(() => innodbArgs({ ...settings, doublewrite: 'fast' }, server)) as RigError;
    t.equal(error.exitCode, 2);
    t.match(error.message, /^doublewrite: fast needs MariaDB 11\.0\.6, .*; this server is .*: use doublewrite: on, or an 11\.x image such as powercut-rig\/mariadb-offline:11\.8$/);
  }
  t.equal(unsupportedSetting({ ...settings, doublewrite: 'fast' }, mariadb118), null);
  t.match(unsupportedSetting({ ...settings, flushMethod: 'nosync' as FlushMethod }, mariadb118), /flush method nosync is gone in 11\.8\.9/);
  t.equal(unsupportedSetting({ ...settings, flushMethod: 'nosync' as FlushMethod }, mariadb1011), null);
});

t.test('MySQL 9.7: redo capacity instead of the log file size, notes in the log, no NUMA policy, no Performance Schema', async (t) => {
  const mysql97 = serverIdentity('9.7.4-2');
  const args = serverArgs(layout, settings, mysql97);
  t.ok(args.includes('--innodb-redo-log-capacity=96M'));
  t.notOk(args.some((a) => a.startsWith('--innodb-log-file-size')), 'innodb_log_file_size is gone in 9.x');
  for (const arg of ['--log-error-verbosity=3', '--loose-innodb-numa-interleave=OFF', '--mysqlx=OFF', '--performance-schema=OFF', '--innodb-flush-method=O_DIRECT']) t.ok(args.includes(arg), arg);
  t.notOk(serverArgs(layout, settings, mariadb118).includes('--performance-schema=OFF'), "MariaDB's is off already");
  t.ok(initializeArgs('/m/data', settings, mysql97).includes('--innodb-redo-log-capacity=96M'), 'the initialiser too');
  t.ok(serverArgs(layout, settings, serverIdentity('8.0.29')).includes('--innodb-log-file-size=96M'), 'before 8.0.30: one file size');
  t.ok(serverArgs(layout, settings, serverIdentity('8.0.30')).includes('--innodb-redo-log-capacity=96M'));
  t.notOk(serverArgs(layout, settings, mariadb118).includes('--log-error-verbosity=3'), 'MariaDB logs its notes anyway');
});

t.test('MySQL 8.0.30+ doublewrite modes map to innodb_doublewrite values; elsewhere they are bad input', async (t) => {
  const mysql97 = serverIdentity('9.7.4-2');
  const cases: [ServerSettings['doublewrite'], string][] = [
    [true, 'ON'], [false, 'OFF'], ['detect-only', 'DETECT_ONLY'], ['detect-and-recover', 'DETECT_AND_RECOVER'],
  ];
  for (const [doublewrite, value] of cases) {
    t.same(durabilityArgs({ ...settings, doublewrite }, mysql97), [`--innodb-doublewrite=${value}`, '--innodb-flush-method=O_DIRECT'], value);
  }
  for (const server of [mariadb1011, mariadb118, serverIdentity('8.0.29')]) {
    const error = t.throws(() => innodbArgs({ ...settings, doublewrite: 'detect-only' }, server)) as RigError;
    t.equal(error.exitCode, 2);
    t.match(error.message, /^doublewrite: detect-only needs MySQL 8\.0\.30 or later \(innodb_doublewrite=DETECT_ONLY\); this server is .*: use doublewrite: on or off, or a MySQL image such as powercut-rig\/mysql-offline:9\.7$/);
  }
  t.match(unsupportedSetting({ ...settings, doublewrite: 'fast' }, mysql97), /^doublewrite: fast needs MariaDB/);
});
