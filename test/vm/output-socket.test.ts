import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { listenForOutput } from '../../rig/vm/output-socket.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-vm-socket-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test("what the guest's port sends reaches the output, which stays open", async (t) => {
  const out = new PassThrough();
  let got = '';
  out.on('data', (chunk: Buffer) => (got += chunk.toString()));
  const socket = await listenForOutput(join(dir, 'stdout.sock'), out);
  const client = connect(socket.path);
  client.end('line one\nline two\n');
  await socket.drained(5000);
  await socket.close();
  t.equal(got, 'line one\nline two\n');
  t.notOk(out.writableEnded, 'not ended: it is the host stdout');
});

t.test('drained returns after its bound when a connection stays open', async (t) => {
  const socket = await listenForOutput(join(dir, 'open.sock'), new PassThrough());
  const client = connect(socket.path);
  await new Promise((r) => client.once('connect', r));
  const started = Date.now();
  await socket.drained(200);
  t.ok(Date.now() - started < 2000);
  await socket.close();
  client.destroy();
});

t.test('an output that fails: the rest is read and dropped, and the connection still ends', async (t) => {
  const out = new PassThrough();
  const socket = await listenForOutput(join(dir, 'broken.sock'), out);
  const client = connect(socket.path);
  await new Promise((r) => client.once('connect', r));
  out.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  client.end(Buffer.alloc(1 << 20, 0x61));
  const started = Date.now();
  await socket.drained(10_000);
  t.ok(Date.now() - started < 9000, 'drained by the connection closing, not by the bound');
  await socket.close();
});
