/** What the kernel says about mounts, loop devices and processes: read, never guessed. */
import { readdirSync, readFileSync } from 'node:fs';
import { runCommand } from './run-command.js';

function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Mount points currently mounted at or below `path`, deepest first. */
export function mountsAtOrBelow(path: string): string[] {
  const info = readFileSync('/proc/self/mountinfo', 'utf8');
  const targets = info
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((t): t is string => !!t)
    .map(unescapeMount)
    .filter((t) => t === path || t.startsWith(path.endsWith('/') ? path : path + '/'));
  return [...new Set(targets)].sort((a, b) => b.length - a.length);
}

/** What is mounted at exactly `target` (mountinfo's source, e.g. /dev/loop3), or null. */
export function mountSource(target: string): string | null {
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const fields = line.split(' ');
    if (fields[4] === undefined || unescapeMount(fields[4]) !== target) continue;
    const rest = fields.slice(fields.indexOf('-') + 1); // fstype, source, options
    return rest[1] ? unescapeMount(rest[1]) : null;
  }
  return null;
}

export function isMounted(path: string): boolean {
  return mountsAtOrBelow(path).includes(path);
}

/** The loop devices attached to `file` (its path as this mount namespace sees it), as /dev/loopN. */
export function loopDevicesBackedBy(file: string): string[] {
  let names: string[];
  try {
    names = readdirSync('/sys/block').filter((n) => /^loop\d+$/.test(n));
  } catch {
    return [];
  }
  return names.filter((n) => loopBackingFile(n) === file).map((n) => `/dev/${n}`);
}

/** The file a loop device is attached to, or null when it is detached. */
export function loopBackingFile(device: string): string | null {
  const name = device.replace(/^\/dev\//, '');
  try {
    return readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function processAlive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat); // a zombie is gone for our purposes
  } catch {
    return false;
  }
}

/** The process's start time in clock ticks since boot (field 22 of /proc/PID/stat): with the pid,
 * it names one process, so a reused pid is not mistaken for the one recorded. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export function processCommandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

const found = new Set<string>(); // commands once found stay found: a disk per explore state asks again

export async function commandExists(name: string): Promise<boolean> {
  if (found.has(name)) return true;
  const { exitCode } = await runCommand('sh', ['-c', `command -v "$1"`, 'sh', name]);
  if (exitCode === 0) found.add(name);
  return exitCode === 0;
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  intervalMs = 20,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
