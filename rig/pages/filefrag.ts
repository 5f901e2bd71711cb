/**
 * Physical extents of files through FIEMAP (any filesystem with it: ext4, xfs), in bytes; those
 * with no fixed place on the device (inline data, delayed allocation) left out. parseFilefrag reads
 * the same from e2fsprogs' `filefrag -e -v -b512` (every figure a 512-byte sector count, exact
 * whatever the filesystem's block size): what the tests hold this reading to.
 */
import { rigFailure } from '../errors.js';
import { FIEMAP_EXTENT_UNPLACED, FIEMAP_EXTENT_UNWRITTEN, fileExtents } from '../../faults/loop-calls.js';

export interface FileExtent {
  /** Byte offset in the file. */
  logical: number;
  /** Byte offset on the device the filesystem lives on. */
  physical: number;
  length: number;
  /** Allocated but never written: reads return zeros. */
  unwritten: boolean;
}

const HEADER = /^File size of (.*) is (\d+) \((\d+) blocks? of (\d+) bytes\)$/;
const EXTENT = /^\s*\d+:\s*(\d+)\.\.\s*(\d+):\s*(\d+)\.\.\s*(\d+):\s*(\d+):\s*(?:\d+:)?\s*(\S*)\s*$/;
/** Extents with no fixed place on the device (data inside the inode, or not yet allocated). */
const UNPLACED = /inline|unknown_loc|delalloc|encoded/;

/** Parses `filefrag -e -v -b512` output into extents per file path. */
export function parseFilefrag(output: string): Map<string, FileExtent[]> {
  const files = new Map<string, FileExtent[]>();
  let current: FileExtent[] | null = null;
  let unit = 512;
  for (const line of output.split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      current = [];
      files.set(header[1]!, current);
      unit = Number(header[4]);
      continue;
    }
    const extent = current ? EXTENT.exec(line) : null;
    if (!extent || UNPLACED.test(extent[6]!)) continue;
    current!.push({
      logical: Number(extent[1]) * unit,
      physical: Number(extent[3]) * unit,
      length: Number(extent[5]) * unit,
      unwritten: extent[6]!.includes('unwritten'),
    });
  }
  return files;
}

/** Extents of each path, as FIEMAP gives them (faults/loop-calls.ts: no process per call). */
export async function readExtents(paths: string[]): Promise<Map<string, FileExtent[]>> {
  const all = new Map<string, FileExtent[]>();
  const read = await Promise.all(paths.map((p) => fileExtents(p).catch((error: Error) => {
    throw rigFailure(`the extents of ${p} could not be read: ${error.message}`);
  })));
  paths.forEach((p, i) => {
    all.set(p, read[i]!.filter((e) => !(e.flags & FIEMAP_EXTENT_UNPLACED)).map((e) => ({
      logical: e.logical, physical: e.physical, length: e.length, unwritten: (e.flags & FIEMAP_EXTENT_UNWRITTEN) !== 0,
    })));
  });
  return all;
}
