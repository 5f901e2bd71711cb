/**
 * The cut triggers a campaign may name, as text: `armed 16`, `armed` (16), `after-writes N`,
 * `at-time 5s`. `manual` exists for `rig cycle` by hand, but nothing would fire it in a campaign.
 */
import type { TriggerSpec } from '../results/types.js';

export const DEFAULT_ARMED_PAGE_WRITES = 16;
const USE = "use 'armed 16', 'after-writes N' or 'at-time 5s'";
const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** The trigger, or a one-line reason (with the fix) why the text is not one. */
export function parseTrigger(text: string): TriggerSpec | string {
  const [kind, arg, ...extra] = text.trim().split(/\s+/);
  if (extra.length > 0) return `'${text}' has too many words; ${USE}`;
  switch (kind) {
    case 'armed': {
      const n = arg === undefined ? DEFAULT_ARMED_PAGE_WRITES : wholeNumber(arg);
      return n ? { kind: 'armed', pendingPageWrites: n } : `'${text}' needs a count of 1 or more, e.g. 'armed 16'`;
    }
    case 'after-writes': {
      const n = arg === undefined ? null : wholeNumber(arg);
      return n ? { kind: 'after-writes', writes: n } : `'${text}' needs a count of 1 or more, e.g. 'after-writes 5000'`;
    }
    case 'at-time': {
      const ms = arg === undefined ? null : parseDuration(arg);
      return ms ? { kind: 'at-time', ms } : `'${text}' needs a time above zero, e.g. 'at-time 5s' or 'at-time 800ms'`;
    }
    case 'manual':
      return "'manual' waits for a person to fire the cut, and nobody does in a campaign; " + USE;
    default:
      return `'${text}' is not a trigger the disk has; ${USE}`;
  }
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text)) ? Number(text) : null;
}

function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!match) return null;
  const ms = Math.round(Number(match[1]) * DURATION_MS[match[2]!]!);
  return ms > 0 ? ms : null;
}

/** The trigger as a campaign file writes it (for names and reports). */
export function showTrigger(trigger: TriggerSpec): string {
  switch (trigger.kind) {
    case 'armed':
      return `armed ${trigger.pendingPageWrites}`;
    case 'after-writes':
      return `after-writes ${trigger.writes}`;
    case 'at-time':
      return `at-time ${trigger.ms}ms`;
    case 'manual':
      return 'manual';
  }
}
