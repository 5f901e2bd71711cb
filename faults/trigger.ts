/**
 * Cut triggers as users write them: `armed 16`, `after-writes 5000`, `at-time 5s`
 * (or 800ms), and `manual`, which only a person fires (so a campaign cannot use it).
 */
import { accept, reject, show, type Checked } from './checked.js';

export type TriggerSpec =
  | { kind: 'armed'; pendingPageWrites: number }
  | { kind: 'after-writes'; writes: number }
  | { kind: 'at-time'; ms: number }
  | { kind: 'manual' };

const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

function readCount(text: string): number | null {
  return /^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

function readDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) return null;
  const ms = Math.round(Number(match[1]) * DURATION_MS[match[2]!]!);
  return ms > 0 ? ms : null;
}

/** The trigger a text names; `manual` only where a person is there to fire the cut. */
export function checkTrigger(value: unknown, allowManual: boolean): Checked<TriggerSpec> {
  const use = `use 'armed 16', 'after-writes N'${allowManual ? ", 'at-time 5s' or 'manual'" : " or 'at-time 5s'"}`;
  if (typeof value !== 'string') return reject(`${show(value)} is not a trigger; ${use}`);
  const [kind, arg, ...extra] = value.trim().split(/\s+/);
  if (extra.length > 0) return reject(`'${value}' has too many words; ${use}`);
  switch (kind) {
    case 'armed': {
      const n = arg === undefined ? null : readCount(arg);
      return n ? accept({ kind: 'armed', pendingPageWrites: n }) : reject(`'${value}' needs a count of 1 or more, e.g. 'armed 16'`);
    }
    case 'after-writes': {
      const n = arg === undefined ? null : readCount(arg);
      return n ? accept({ kind: 'after-writes', writes: n }) : reject(`'${value}' needs a count of 1 or more, e.g. 'after-writes 5000'`);
    }
    case 'at-time': {
      const ms = arg === undefined ? null : readDuration(arg);
      return ms ? accept({ kind: 'at-time', ms }) : reject(`'${value}' needs a time above zero, e.g. 'at-time 5s' or 'at-time 800ms'`);
    }
    case 'manual':
      if (allowManual && arg === undefined) return accept({ kind: 'manual' });
      return reject(allowManual
        ? `'${value}': manual takes no argument; ${use}`
        : `'manual' waits for a person to fire the cut, and nobody does in a campaign; ${use}`);
    default:
      return reject(`'${value}' is not a trigger the disk has; ${use}`);
  }
}

export function formatTrigger(t: TriggerSpec): string {
  switch (t.kind) {
    case 'armed':
      return `armed ${t.pendingPageWrites}`;
    case 'after-writes':
      return `after-writes ${t.writes}`;
    case 'at-time':
      return `at-time ${t.ms % 1000 === 0 ? `${t.ms / 1000}s` : `${t.ms}ms`}`;
    case 'manual':
      return 'manual';
  }
}

/** The helper's `arm` command for a trigger. */
export function armCommand(t: TriggerSpec | null): string {
  if (!t) return 'arm none';
  switch (t.kind) {
    case 'armed':
      return `arm armed ${t.pendingPageWrites}`;
    case 'after-writes':
      return `arm after-writes ${t.writes}`;
    case 'at-time':
      return `arm at-time ${t.ms}`;
    case 'manual':
      return 'arm manual';
  }
}
