// CHECK TABLE on a real mariadbd: a table whose tablespace file vanished is reported, the rest pass.
import t from 'tap';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTables } from '../../rig/checks/tables.js';
import { closeQuietly, connectToServer } from '../../rig/runtime/local.js';
import { initializedSpec, startServer } from '../fixtures/local-server.js';

t.test('reports each table that fails, and only those', async (t) => {
  const spec = await initializedSpec(t);
  const first = await startServer(t, spec);
  let connection = await connectToServer({ socketPath: first.socketPath });
  await connection.query('CREATE DATABASE sbtest');
  for (const table of ['kept', 'lost']) {
    await connection.query(`CREATE TABLE sbtest.${table} (id INT PRIMARY KEY) ENGINE=InnoDB`);
    await connection.query(`INSERT INTO sbtest.${table} VALUES (1), (2)`);
  }
  t.same(await checkTables(connection), { tables: 2, failed: [], serverLost: false });
  await closeQuietly(connection);
  await first.stop();
  await unlink(join(spec.datadir, 'sbtest', 'lost.ibd'));

  const second = await startServer(t, spec);
  connection = await connectToServer({ socketPath: second.socketPath });
  t.teardown(() => closeQuietly(connection));
  const result = await checkTables(connection);
  t.equal(result.tables, 2);
  t.equal(result.failed.length, 1, result.failed.join('\n'));
  t.match(result.failed[0], /^sbtest\.lost: /);
  t.equal(result.serverLost, false);
});
