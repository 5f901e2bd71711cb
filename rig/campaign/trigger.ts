/**
 * The cut triggers a campaign may name: the disk's own syntax (faults/trigger.ts) without `manual`,
 * which waits for a person to fire the cut.
 */
import { formatTrigger, readTrigger, type TriggerSpec } from '../../faults/trigger.js';

/** The trigger, or a one-line reason (with the fix) why the text is not one. */
export function parseTrigger(text: string): TriggerSpec | string {
  return readTrigger(text, false);
}

/** The trigger as a campaign file writes it (for names and reports). */
export const showTrigger = formatTrigger;
