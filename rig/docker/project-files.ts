/**
 * The files of the project's top level, as relative paths, for an image built from it (the rig's
 * own). The engine's client applies .dockerignore to this list, as `docker build` does; the walk
 * only skips the two folders .dockerignore always names and that are too big to list for nothing.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const NEVER_WALKED = new Set(['node_modules', '.git']);

export async function projectFiles(root: string, under = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(root, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!NEVER_WALKED.has(entry.name)) files.push(...(await projectFiles(root, rel)));
    } else if (entry.isFile()) {
      files.push(rel);
    }
  }
  return files.sort();
}
