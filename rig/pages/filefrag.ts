/**
 * Physical extents of files through FIEMAP, as e2fsprogs' filefrag prints them (it works on any
 * filesystem with FIEMAP: ext4, xfs). `-b512` makes every figure a 512-byte sector count, exact
 * whatever the filesystem's block size; offsets are returned in bytes.
 */
import { rigFailure } from '../errors.js';
import { runCommand } from '../../faults/run-command.js';

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

/** Extents of each path, in one filefrag run per batch of paths. */
export async function readExtents(paths: string[]): Promise<Map<string, FileExtent[]>> {
  const all = new Map<string, FileExtent[]>();
  for (let i = 0; i < paths.length; i += 200) {
    const batch = paths.slice(i, i + 200);
    const result = await runCommand('filefrag', ['-e', '-v', '-b512', ...batch]);
    if (result.exitCode !== 0) {
      throw rigFailure(`filefrag failed (exit ${result.exitCode}): ${result.stderr.trim()}; is e2fsprogs installed?`);
    }
    for (const [path, extents] of parseFilefrag(result.stdout)) all.set(path, extents);
  }
  return all;
}
