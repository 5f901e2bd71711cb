/** Cut triggers as users write them (`armed 16`, `after-writes 500`, `at-time 5s`, `manual`). */
import { badInput } from '../rig/errors.js';
import type { TriggerSpec } from '../rig/results/types.js';

export const DEFAULT_TRIGGER: TriggerSpec = { kind: 'armed', pendingPageWrites: 16 };

export function parseTrigger(text: string): TriggerSpec {
  const fix = "use 'armed N', 'after-writes N', 'at-time 5s' (or ms) or 'manual'";
  const [kind, arg, ...extra] = text.trim().split(/[\s=:]+/);
  const count = (what: string): number => {
    const n = Number(arg);
    if (!arg || extra.length || !Number.isInteger(n) || n < 1) {
      throw badInput(`--trigger '${text}': ${what} needs a whole number of at least 1; ${fix}`);
    }
    return n;
  };
  switch (kind) {
    case 'armed':
      return { kind, pendingPageWrites: arg === undefined ? 16 : count('armed') };
    case 'after-writes':
      return { kind, writes: count('after-writes') };
    case 'at-time': {
      const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(arg ?? '');
      if (!m || extra.length) throw badInput(`--trigger '${text}': at-time needs a duration like 5s or 800ms; ${fix}`);
      return { kind, ms: Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : 1000)) };
    }
    case 'manual':
      if (arg !== undefined) throw badInput(`--trigger '${text}': manual takes no argument; ${fix}`);
      return { kind };
    default:
      throw badInput(`--trigger '${text}' is not a trigger the disk has; ${fix}`);
  }
}

export function formatTrigger(t: TriggerSpec): string {
  switch (t.kind) {
    case 'armed':
      return `armed ${t.pendingPageWrites}`;
    case 'after-writes':
      return `after-writes ${t.writes}`;
    case 'at-time':
      return `at-time ${t.ms}ms`;
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
