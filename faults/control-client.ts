/**
 * Talks to the native helper over its control socket: one command line out, one reply line back
 * (`ok {json}` or `err <reason>`), always with a timeout, so a helper that stops answering is a rig
 * failure rather than a hang.
 */
import { createConnection } from 'node:net';
import { diskFailure } from './disk-error.js';

/** How long a command's reply may take, unless the command says otherwise. */
export const REPLY_TIMEOUT_MS = 5000;

export async function sendCommand<T = Record<string, unknown>>(
  socketPath: string,
  command: string,
  timeoutMs = REPLY_TIMEOUT_MS,
): Promise<T> {
  const line = await new Promise<string>((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(diskFailure(`power-fail disk did not answer '${command}' within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${command}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.end();
      resolve(buffer.slice(0, end));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(diskFailure(`power-fail disk control socket ${socketPath}: ${error.message}`, error));
    });
  });
  if (line.startsWith('ok ')) return JSON.parse(line.slice(3)) as T;
  throw diskFailure(refusal(command, line.replace(/^err /, '')));
}

/** The message of the rig failure for an `err <reason>` reply. */
export function refusal(command: string, reason: string): string {
  return `power-fail disk refused '${command}': ${reason}`;
}
