/**
 * Who a leftover belongs to: the rig process that made it, named by pid and start time (so a
 * reused pid is never mistaken for it). A sweep takes away only what belongs to a process that is
 * gone; a live run's disk, server, containers and engine are its own to take down.
 */
import { processAlive, processStartTime } from '../faults/system.js';

export interface ProcessOwner {
  pid: number;
  startTime: string | null;
}

export function currentOwner(): ProcessOwner {
  return { pid: process.pid, startTime: processStartTime(process.pid) };
}

export function ownerAlive(owner: ProcessOwner): boolean {
  if (!processAlive(owner.pid)) return false;
  return owner.startTime === null || processStartTime(owner.pid) === owner.startTime;
}

/** `PID:STARTTIME`, the form a container label or a one-line record file holds. */
export function formatOwner(owner: ProcessOwner): string {
  return `${owner.pid}:${owner.startTime ?? ''}`;
}

/** The owner a label or record names, or null when it names none. */
export function readOwner(text: string | undefined | null): ProcessOwner | null {
  const match = /^(\d+):(\d*)$/.exec((text ?? '').trim());
  if (!match) return null;
  return { pid: Number(match[1]), startTime: match[2] || null };
}
