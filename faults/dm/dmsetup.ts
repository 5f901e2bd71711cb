/**
 * The device-mapper operations the dm disk needs, through dmsetup. Every device it makes is named
 * `pcr-<hash of the disk's folder>-<role>`, so teardown and cleanup touch only the rig's own.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { diskFailure } from '../disk-error.js';

export const CONTROL = '/dev/mapper/control';

export function dmNames(dir: string): { log: string; flakey: string } {
  const h = createHash('sha256').update(dir).digest('hex').slice(0, 12);
  return { log: `pcr-${h}-log`, flakey: `pcr-${h}-cut` };
}

export function mapperPath(name: string): string {
  return `/dev/mapper/${name}`;
}

async function dmsetup(args: string[], what: string): Promise<string> {
  const r = await execa('dmsetup', args, { reject: false, timeout: 60_000 });
  if (r.exitCode !== 0) throw diskFailure(`${what} failed (dmsetup ${args.join(' ')}): ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

export async function createDevice(name: string, table: string): Promise<void> {
  await dmsetup(['create', name, '--table', table], `creating ${name}`);
  await dmsetup(['mknodes', name], `making the node of ${name}`);
}

export function logWritesTable(sectors: number, dataDev: string, logDev: string): string {
  return `0 ${sectors} log-writes ${dataDev} ${logDev}`;
}

/** Flakey over `dev`: passing every request (up for good), or failing every one (down for good). */
export function flakeyTable(sectors: number, dev: string, up: boolean): string {
  return `0 ${sectors} flakey ${dev} 0 ${up ? '1 0' : '0 1'}`;
}

/** Holds I/O: requests under way complete, new ones wait; the filesystem is not synced first. */
export async function suspendHolding(name: string): Promise<void> {
  await dmsetup(['suspend', '--noflush', '--nolockfs', name], `holding I/O on ${name}`);
}

export async function replaceTable(name: string, table: string): Promise<void> {
  await dmsetup(['load', name, '--table', table], `loading a table into ${name}`);
  await dmsetup(['resume', name], `resuming ${name}`);
}

export async function logMark(logName: string, text: string): Promise<void> {
  await dmsetup(['message', logName, '0', 'mark', text], `marking the log of ${logName}`);
}

export function deviceExists(name: string): boolean {
  return existsSync(mapperPath(name));
}

/** Removes a device of ours; retries while something still has it open. */
export async function removeDevice(name: string): Promise<string | null> {
  if (!deviceExists(name)) return null;
  const r = await execa('dmsetup', ['remove', '--retry', name], { reject: false, timeout: 60_000 });
  return r.exitCode === 0 ? null : `could not remove ${name}: ${(r.stderr || r.stdout).trim()}`;
}

/** "MAJ:MIN" of a device-mapper device, for its counters in /sys/dev/block. */
export async function deviceNumber(name: string): Promise<string> {
  return (await dmsetup(['info', '-c', '--noheadings', '-o', 'major,minor', name], `reading ${name}'s numbers`)).trim().replace(/\s+/g, '');
}

/** Writes the block layer has completed on a device (its stat file's fifth field). */
export function completedWrites(number: string): number {
  const fields = readFileSync(`/sys/dev/block/${number}/stat`, 'utf8').trim().split(/\s+/);
  return Number(fields[4]);
}
