/**
 * A text file's lines, read as they are asked for. Each read waits for its caller, so a reader
 * holds one chunk of the file and the line it is in, however many readers are open at once;
 * node:readline's async iterator reads ahead up to 1024 lines of each file instead, which for
 * files of 10-70 KB lines (cycles.jsonl) is the whole file of each shard a merge opens.
 */
import { createReadStream } from 'node:fs';

export async function* readLines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8' });
  let rest = '';
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
    }
    if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
  } finally {
    input.destroy();
  }
}
