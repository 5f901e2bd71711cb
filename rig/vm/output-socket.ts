/**
 * A unix socket the guest's output comes in on: qemu connects to it as the client of a virtio
 * console port, and everything it sends goes to `out` (never ended: stdout stays the host's).
 * Listening before qemu starts means no byte is lost to a late reader.
 */
import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export interface OutputSocket {
  path: string;
  /** Resolves once qemu's connection has closed and its bytes are handed on, or after `ms`. */
  drained(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function listenForOutput(path: string, out: Writable): Promise<OutputSocket> {
  const connections: Socket[] = [];
  let sawClose!: () => void;
  // qemu connects once, at its start; the bytes are all handed on once that connection closes
  const closed = new Promise<void>((resolve) => (sawClose = resolve));
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on('close', () => sawClose());
    socket.on('error', () => socket.destroy()); // a reset when qemu is killed: nothing more to read
    socket.pipe(out, { end: false });
    // a reader that went away (`rig vm run ... | head`): keep reading, so the guest is never
    // stuck on a full port and still ends with its exit code
    out.once('error', () => {
      socket.unpipe(out);
      socket.resume();
    });
  });
  server.listen(path);
  await once(server, 'listening');
  return {
    path,
    drained: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        void closed.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    close: async () => {
      for (const socket of connections) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
