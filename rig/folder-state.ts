/**
 * What a run wrote into a folder that holds an earlier run's files: the entries there now that are
 * new, or not as they were (another inode, size or modification time). An interrupted run removes
 * just those, so it leaves nothing half made, and the earlier run's files it never touched stay.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Each entry of a folder by name, as a signature of what it is; null: there is no such folder. */
export type FolderState = Map<string, string> | null;

function signature(path: string): string | null {
  try {
    const s = lstatSync(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return null; // gone since the listing
  }
}

export function folderState(dir: string): FolderState {
  if (!existsSync(dir)) return null;
  const state = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const s = signature(join(dir, name));
    if (s !== null) state.set(name, s);
  }
  return state;
}

/** The entries of dir that are not as they were in `before` (a folder, as folderState saw it). */
export function writtenSince(dir: string, before: Map<string, string>): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => {
    const now = signature(join(dir, name));
    return now !== null && before.get(name) !== now;
  });
}
