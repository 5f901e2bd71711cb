/**
 * Where a file's bytes sit on the device, as the extent map (FIEMAP) of the mounted filesystem
 * gives them: the ranges the disk's armed trigger is told about (page copies to count past,
 * temporary tablespaces to ignore).
 */
import type { FileExtent } from './filefrag.js';

export interface DeviceRange {
  offset: number;
  length: number;
}

/** The device ranges of a file's bytes [from, to). */
export function deviceRangesOf(extents: readonly FileExtent[], from: number, to: number): DeviceRange[] {
  const out: DeviceRange[] = [];
  for (const e of extents) {
    const start = Math.max(from, e.logical);
    const end = Math.min(to, e.logical + e.length);
    if (start < end) out.push({ offset: e.physical + (start - e.logical), length: end - start });
  }
  return out;
}

/** Sorted by offset, with touching or overlapping ranges joined. */
export function mergeAdjacent(ranges: readonly DeviceRange[]): DeviceRange[] {
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  const out: DeviceRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && last.offset + last.length >= r.offset) last.length = Math.max(last.length, r.offset + r.length - last.offset);
    else out.push({ ...r });
  }
  return out;
}

/**
 * The `max` largest ranges, by offset: when a list must be cut down, what is left out stays
 * outside the ranges rather than joining bytes of other files to them.
 */
export function largest(ranges: readonly DeviceRange[], max: number): DeviceRange[] {
  return [...ranges].sort((a, b) => b.length - a.length).slice(0, max).sort((a, b) => a.offset - b.offset);
}
