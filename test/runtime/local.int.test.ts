// The local runtime against the host's real mariadbd on plain temp dirs (not the power-fail disk).
import t from 'tap';
import { access, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { RigError } from '../../rig/errors.js';
import { readDoublewriteArea, TRX_SYS_PAGE_NO } from '../../rig/pages/doublewrite-area.js';
import { connectToServer, closeQuietly, SERVER_PID_FILE, sweepLocalServer } from '../../rig/runtime/local.js';
import { initializedSpec, runtime, startServer, tempDir } from '../fixtures/local-server.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

t.test('starts on a socket, answers, records its pid, stops cleanly twice', async (t) => {
  const spec = await initializedSpec(t);
  const server = await startServer(t, spec);
  t.ok(server.pid, 'has a pid');
  t.equal((await readFile(join(spec.runDir, SERVER_PID_FILE), 'utf8')).trim(), String(server.pid));
  const connection = await connectToServer({ socketPath: server.socketPath });
  t.teardown(() => closeQuietly(connection));
  const [rows] = await connection.query('SELECT @@innodb_doublewrite AS dw, @@innodb_flush_log_at_trx_commit AS fl, @@skip_networking AS net');
  t.same(rows, [{ dw: 1, fl: 1, net: 1 }], 'settings applied, networking off');
  t.match(await server.errorLog(), /ready for connections/);
  await server.stop();
  await server.stop();
  t.same(await server.waitForExit(0), { exitCode: 0, signal: null }, 'clean exit');
  t.notOk(alive(server.pid!), 'process gone');
  await t.rejects(access(join(spec.runDir, SERVER_PID_FILE)), 'pid file removed');
});

t.test('a socket path over 107 bytes is a rig failure, no process started', async (t) => {
  const spec = await initializedSpec(t);
  const runDir = join(spec.runDir, 'x'.repeat(110));
  const error = await runtime.start({ ...spec, runDir }, 30_000).catch((e: unknown) => e);
  t.type(error, RigError);
  t.equal((error as RigError).code, 'rig-failure');
  t.match((error as Error).message, /socket path is \d+ bytes/);
  await t.rejects(access(join(runDir, SERVER_PID_FILE)), 'no server was started');
});

t.test('a datadir that cannot be written is a rig failure', async (t) => {
  const spec = await initializedSpec(t);
  const chattr = await execa('chattr', ['+i', spec.datadir], { reject: false });
  if (chattr.failed) return t.plan(0, `chattr +i is not supported here: ${chattr.stderr}`);
  t.teardown(() => execa('chattr', ['-i', spec.datadir], { reject: false }));
  const error = await runtime.start(spec, 30_000).catch((e: unknown) => e);
  t.equal((error as RigError).code, 'rig-failure');
  t.match((error as Error).message, /datadir .* is not writable \(EPERM\)/);
});

t.test('a missing datadir is a rig failure', async (t) => {
  const spec = await initializedSpec(t);
  const error = await runtime.start({ ...spec, datadir: join(spec.datadir, 'nope') }, 30_000).catch((e) => e);
  t.equal((error as RigError).code, 'rig-failure');
  t.match((error as Error).message, /ENOENT/);
});

t.test('a second server on a datadir in use is a rig failure', async (t) => {
  const spec = await initializedSpec(t);
  const first = await startServer(t, spec);
  const runDir = join(spec.runDir, 'run2');
  const error = await runtime.start({ ...spec, runDir }, 60_000).catch((e: unknown) => e);
  t.equal((error as RigError).code, 'rig-failure', String(error));
  t.match((error as Error).message, new RegExp(`process ${first.pid} already runs a server on datadir`));
});

t.test('a server refusing corrupt data is ready:false with its log, not a rig failure', async (t) => {
  const spec = await initializedSpec(t);
  // page 0 of the system tablespace zeroed, and its doublewrite area too: with a copy of page 0
  // left there (whether there is one depends on the last flush) the server restores it
  const ps = spec.settings.pageSize;
  const handle = await open(join(spec.datadir, 'ibdata1'), 'r+');
  const trxSys = Buffer.alloc(ps);
  await handle.read(trxSys, 0, ps, TRX_SYS_PAGE_NO * ps);
  const area = readDoublewriteArea(trxSys);
  if (!area) throw new Error('the initialized datadir has no doublewrite area in its TRX_SYS page');
  await handle.write(Buffer.alloc(ps), 0, ps, 0);
  for (const first of area.blocks) await handle.write(Buffer.alloc(area.blockPages * ps), 0, area.blockPages * ps, first * ps);
  await handle.close();
  const outcome = await runtime.start(spec, 60_000);
  t.equal(outcome.ready, false);
  if (outcome.ready) return outcome.server.stop();
  t.equal(outcome.timedOut, false);
  t.not(outcome.exitCode, 0, `exit code ${outcome.exitCode}`);
  t.match(outcome.errorLog, /\[ERROR\]/, 'the error log says why');
  t.rejects(access(join(spec.runDir, SERVER_PID_FILE)), 'no process left recorded');
});

t.test('a start that is not ready in time is killed and reported as timed out', async (t) => {
  const spec = await initializedSpec(t);
  const outcome = await runtime.start(spec, 1);
  t.equal(outcome.ready, false);
  if (outcome.ready) return;
  t.equal(outcome.timedOut, true);
  await t.rejects(access(join(spec.runDir, SERVER_PID_FILE)), 'killed and gone');
});

t.test('aborting the run kills the server', async (t) => {
  const controller = new AbortController();
  const spec = await initializedSpec(t, controller.signal);
  const server = await startServer(t, spec);
  controller.abort();
  const exit = await server.waitForExit(15_000);
  t.equal(exit?.signal, 'SIGKILL');
});

t.test('the cleanup sweep kills a server by the pid its run recorded, and only that', async (t) => {
  const spec = await initializedSpec(t);
  const server = await startServer(t, spec);
  t.equal(await sweepLocalServer(spec.datadir), null, 'another folder records nothing');
  t.same(await sweepLocalServer(spec.runDir), { pid: server.pid, gone: true });
  t.equal((await server.waitForExit(5000))?.signal, 'SIGKILL');
  t.equal(await sweepLocalServer(spec.runDir), null, 'nothing left the second time');
});

t.test('describe names the server and its version', async (t) => {
  const { server, version } = await runtime.describe();
  t.match(server, /^(mariadbd|mysqld)$/);
  t.match(version, /^\d+\.\d+\.\d+/);
});
