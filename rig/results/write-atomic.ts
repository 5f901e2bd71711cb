/**
 * Writes a file so that a reader (or a crash) sees the old content or the new, never a part:
 * write a temporary file beside it, fsync it, rename it over the target, fsync the folder.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeChunksAtomic(path, [data]);
}

/** The same for content made as it is written: nothing but `chunks` is held in memory. */
export async function writeChunksAtomic(path: string, chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const file = await open(temp, 'wx', 0o644);
    try {
      for await (const chunk of chunks) await file.writeFile(chunk); // at the current position, whole
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(path));
}

/** Makes a rename durable. */
async function syncFolder(folder: string): Promise<void> {
  const dir = await open(folder, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
