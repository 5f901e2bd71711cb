/**
 * A unix socket the guest's output comes in on: qemu connects to it as the client of a virtio
 * console port, and everything it sends goes to `out` (never ended: stdout stays the host's).
 * Listening before qemu starts means no byte is lost to a late reader.
 */
import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

export interface OutputSocket {
  path: string;
  /** Resolves once every connection has closed and its bytes are handed on (at most `ms`). */
  drained(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function listenForOutput(path: string, out: Writable): Promise<OutputSocket> {
  const connections: Socket[] = [];
  const closed: Promise<unknown>[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    closed.push(once(socket, 'close').catch(() => undefined));
    socket.on('error', () => socket.destroy()); // a reset when qemu is killed: nothing more to read
    socket.pipe(out, { end: false });
  });
  server.listen(path);
  await once(server, 'listening');
  return {
    path,
    drained: async (ms) => {
      await Promise.race([Promise.all(closed), sleep(ms, undefined, { ref: false })]);
    },
    close: async () => {
      for (const socket of connections) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
