import t from 'tap';
import { RigError } from '../../rig/errors.js';
import { initializeArgs, serverArgs, validateServerSettings } from '../../rig/runtime/server-args.js';
import type { FlushMethod, ServerSettings } from '../../rig/results/types.js';

const settings: ServerSettings = { doublewrite: false, flushMethod: 'O_DIRECT', pageSize: 4096, bufferPool: '64M', redoSize: '96M' };
const layout = { datadir: '/m/data', socketPath: '/r/mysqld.sock', pidFile: '/r/mysqld.pid', tmpdir: '/r' };

t.test('server command line: no option files, socket only, the scenario and honest flushing', async (t) => {
  const args = serverArgs(layout, settings, 'mariadb');
  t.equal(args[0], '--no-defaults', 'must come first');
  for (const arg of [
    '--datadir=/m/data', '--socket=/r/mysqld.sock', '--skip-networking', '--innodb-page-size=4096',
    '--innodb-doublewrite=OFF', '--innodb-flush-method=O_DIRECT', '--innodb-buffer-pool-size=64M',
    '--innodb-log-file-size=96M', '--innodb-flush-log-at-trx-commit=1',
  ]) t.ok(args.includes(arg), arg);
  t.notOk(args.some((a) => a.startsWith('--log-error')), 'the log goes to stderr, which the runtime files');
  t.ok(serverArgs(layout, settings, 'mysql').includes('--mysqlx=OFF'));
  t.notOk(args.includes('--mysqlx=OFF'));
});

t.test('initialisation fixes the page size', async (t) => {
  t.ok(initializeArgs('/m/data', settings, 'mariadb').includes('--innodb-page-size=4096'));
  t.ok(initializeArgs('/m/data', settings, 'mysql').includes('--initialize-insecure'));
});

t.test('rejects settings the server would refuse, as bad input', async (t) => {
  const bad: Array<Partial<ServerSettings>> = [{ pageSize: 12288 }, { flushMethod: 'O_SYNC' as FlushMethod }, { bufferPool: '64 MB' }, { redoSize: '' }];
  for (const change of bad) {
    t.throws(() => validateServerSettings({ ...settings, ...change }), RigError, JSON.stringify(change));
  }
  t.doesNotThrow(() => validateServerSettings({ ...settings, flushMethod: 'fsync', bufferPool: '1G' }));
});
