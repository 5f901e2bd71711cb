/** A disk's device profile and cache mode in a few words, for summaries and the report. */
import type { DiskSettings } from './types.js';

/** 'essd (durable cache)', or 'local (volatile cache, cut by dm-flakey)' on the dm backend. A
 * record written before profiles ran on the machine's disk as it is. */
export function describeDevice(disk: DiskSettings): string {
  const cut = disk.backend === 'dm' ? ', cut by dm-flakey' : '';
  return `${disk.profile ?? 'local'} (${disk.model?.cache ?? 'volatile'} cache${cut})`;
}
