/**
 * Readiness strategy: the server is ready when a connection over its socket answers SELECT 1.
 * Waits until then, until the process exits, until the bound passes, or until aborted. Until the
 * socket file is there (the server makes it when recovery is over), only the file is looked for,
 * every 10 ms: a connection is tried once it appears, so the wait ends within a few milliseconds
 * of the server being ready and costs next to nothing before. A connection that fails (a socket
 * left from an earlier server, one not answering yet) is tried again after 100 ms.
 *
 * Given a stall watch, the server's activity is read twice a second while it is waited for, and a
 * server that stalls (./stall-watch.ts: no I/O, next to no CPU, for the watch's window) ends the
 * wait early: it would not answer by the bound either.
 */
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeQuietly, connectToServer } from './connect.js';
import { readActivity } from './server-activity.js';
import type { StallCheck } from './stall-check.js';

export type ReadyResult = 'ready' | 'exited' | 'timeout' | 'aborted' | 'stalled';

export interface ReadyWait {
  socketPath: string;
  timeoutMs: number;
  exited: Promise<unknown>; // settles when the server process is gone
  signal?: AbortSignal;
  pollMs?: number; // between connections that failed; 100 by default
  stall?: StallCheck;
}

const SOCKET_POLL_MS = 10;
const ACTIVITY_EVERY_MS = 500;

// a stat of a local path takes microseconds: made here, not as a promise through the thread pool
// (which cost about 0.1 ms of the rig's thread each time, 50 times in a recovery of half a second)
function isSocket(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isSocket() ?? false;
  } catch {
    return false;
  }
}

async function answersSelectOne(socketPath: string, connectTimeoutMs: number): Promise<boolean> {
  let connection = null;
  try {
    connection = await connectToServer({ socketPath }, { connectTimeoutMs });
    await connection.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await closeQuietly(connection);
  }
}

export async function waitForReady(wait: ReadyWait): Promise<ReadyResult> {
  const deadline = Date.now() + wait.timeoutMs;
  let exited = false;
  void wait.exited.then(
    () => (exited = true),
    () => (exited = true),
  );
  const exitedOrSlept = (ms: number) =>
    Promise.race([wait.exited.catch(() => undefined), sleep(ms)]);
  let activityDue = 0;
  while (true) {
    if (wait.signal?.aborted) return 'aborted';
    if (exited) return 'exited';
    const now = Date.now();
    const remaining = deadline - now;
    if (remaining <= 0) return 'timeout';
    if (wait.stall && now >= activityDue) {
      activityDue = now + ACTIVITY_EVERY_MS;
      if (wait.stall.watch.observe(readActivity(wait.stall.source, performance.now()))) return 'stalled';
    }
    if (!isSocket(wait.socketPath)) {
      await exitedOrSlept(Math.min(SOCKET_POLL_MS, remaining));
      continue;
    }
    const attempt = answersSelectOne(wait.socketPath, Math.max(500, Math.min(5000, remaining)));
    const outcome = await Promise.race([attempt, wait.exited.then(() => 'exited' as const, () => 'exited' as const)]);
    if (outcome === true) return 'ready';
    if (outcome === 'exited') return 'exited';
    await exitedOrSlept(Math.min(wait.pollMs ?? 100, Math.max(0, deadline - Date.now())));
  }
}
