/**
 * Kills a server an earlier run left behind, found by the pid it recorded in its run directory.
 * The pid is trusted only while /proc says it is still that run's server (its command line names
 * a socket in that run directory), so a reused pid is never touched.
 */
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_PID_FILE, readRecordedPid, sendSignal } from './local-server.js';

async function isRunsServer(pid: number, runDir: string): Promise<boolean> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return cmdline.split('\0').some((arg) => arg.startsWith(`--socket=${join(runDir, '/')}`));
}

/** The pid it found alive and killed (gone: whether it died in time), or null if none was left. */
export async function sweepLocalServer(
  runDir: string,
  waitMs = 10_000,
): Promise<{ pid: number; gone: boolean } | null> {
  const pid = await readRecordedPid(runDir);
  if (pid === null) return null;
  if (!(await isRunsServer(pid, runDir))) {
    await unlink(join(runDir, SERVER_PID_FILE)).catch(() => undefined);
    return null;
  }
  sendSignal(pid, 'SIGKILL');
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && (await isRunsServer(pid, runDir))) await sleep(50);
  if (await isRunsServer(pid, runDir)) return { pid, gone: false }; // the caller reports it
  await unlink(join(runDir, SERVER_PID_FILE)).catch(() => undefined);
  return { pid, gone: true };
}
