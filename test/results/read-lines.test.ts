import t, { type Test } from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLines } from '../../rig/results/read-lines.js';

async function linesOf(t: Test, content: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'rig-lines-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'f'), content);
  const lines: string[] = [];
  for await (const line of readLines(join(dir, 'f'))) lines.push(line);
  return lines;
}

t.test('lines longer than a read, multi-byte characters across reads, CRLF, no final newline', async (t) => {
  const long = 'é'.repeat(70_000); // 140 KB: more than two reads of 64 KB, a character split at each
  t.same(await linesOf(t, `a\n${long}\r\n\nlast`), ['a', long, '', 'last']);
  t.same(await linesOf(t, 'one\ntwo\n'), ['one', 'two'], 'a final newline ends the last line');
  t.same(await linesOf(t, ''), []);
});

t.test('a reader stopped early closes its file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rig-lines-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'f'), 'x\n'.repeat(100_000));
  for await (const line of readLines(join(dir, 'f'))) {
    t.equal(line, 'x');
    break;
  }
});

t.test('a missing file rejects with ENOENT', async (t) => {
  await t.rejects(async () => {
    for await (const _ of readLines('/nonexistent/rig-lines')) void _;
  }, { code: 'ENOENT' });
});
