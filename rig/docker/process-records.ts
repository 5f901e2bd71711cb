/**
 * Processes and mounts the rig recorded for its Docker engine: read a pid file, check that the pid
 * is still the process we started (by its command line), end it, and lazily unmount what dockerd
 * left under its own directories. Never touches a pid or mount outside the rig's records.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { execa } from 'execa';
import { setTimeout as sleep } from 'node:timers/promises';

export async function readPid(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 1 ? pid : null;
}

/** The process's argv joined by spaces, or null if it is gone. */
export async function commandLineOf(pid: number): Promise<string | null> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  return raw === null || raw === '' ? null : raw.split('\0').join(' ').trim();
}

/** Is `pid` alive and does its command line mention `marker` (our own data or exec root)? */
export async function isOurProcess(pid: number, marker: string): Promise<boolean> {
  const cmd = await commandLineOf(pid);
  return cmd !== null && cmd.includes(marker);
}

/** SIGTERM, wait up to `graceMs`, then SIGKILL and wait again; resolves once it is gone. */
export async function endProcess(pid: number, graceMs: number): Promise<void> {
  const signalIt = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  signalIt('SIGTERM');
  if (await waitGone(pid, graceMs)) return;
  signalIt('SIGKILL');
  await waitGone(pid, 5000);
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // a zombie ("Z") has exited: its parent (us, or init) reaps it
    if (stat === null || /^\d+ \(.*\) Z/.test(stat)) return true;
    await sleep(100);
  }
  return false;
}

/** Lazily unmounts every mount at or below `dir` (deepest first). */
export async function unmountUnder(dir: string): Promise<string[]> {
  const mountinfo = await readFile('/proc/self/mountinfo', 'utf8');
  const points = mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((p): p is string => !!p && (p === dir || p.startsWith(`${dir}/`)))
    .map((p) => p.replace(/\\040/g, ' '))
    .sort((a, b) => b.length - a.length);
  for (const point of points) await execa('umount', ['-l', point], { reject: false });
  return points;
}

export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** Pids whose command line mentions `marker`, each with its parent pid. */
async function processesMentioning(marker: string): Promise<{ pid: number; ppid: number }[]> {
  const found: { pid: number; ppid: number }[] = [];
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await commandLineOf(Number(entry));
    if (!cmd?.includes(marker)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    found.push({ pid: Number(entry), ppid: Number(/\) \S (\d+)/.exec(stat)?.[1] ?? 0) });
  }
  return found;
}

/**
 * After a killed dockerd, its containers' shims (and the servers under them) live on: SIGKILL
 * every direct child of a shim that names our containerd socket, then the shim.
 */
export async function killOrphanShims(containerdSocket: string): Promise<number> {
  const shims = (await processesMentioning(containerdSocket)).filter((p) => p.pid !== process.pid);
  const shimPids = new Set(shims.map((s) => s.pid));
  for (const entry of await readdir('/proc').catch(() => [])) {
    const stat = /^\d+$/.test(entry) ? await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '') : '';
    const ppid = Number(/\) \S (\d+)/.exec(stat)?.[1] ?? 0);
    if (shimPids.has(ppid)) await endProcess(Number(entry), 0);
  }
  for (const pid of shimPids) await endProcess(pid, 2000);
  return shimPids.size;
}
