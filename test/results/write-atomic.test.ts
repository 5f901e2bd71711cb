import t from 'tap';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../rig/results/write-atomic.js';

t.test('replaces a file whole and leaves no temporary file behind', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rig-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'results.json');
  await writeFile(path, 'old');
  await writeFileAtomic(path, '{"new":true}\n');
  t.equal(await readFile(path, 'utf8'), '{"new":true}\n');
  await writeFileAtomic(path, Buffer.from('bytes'));
  t.equal(await readFile(path, 'utf8'), 'bytes');
  t.same(await readdir(dir), ['results.json']);
});

t.test('concurrent writers each land whole: the file is one of them, never a mix', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rig-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'results.json');
  const bodies = Array.from({ length: 8 }, (_, i) => String(i).repeat(200_000));
  await Promise.all(bodies.map((b) => writeFileAtomic(path, b)));
  t.ok(bodies.includes(await readFile(path, 'utf8')));
  t.same(await readdir(dir), ['results.json']);
});

t.test('a failed write keeps the old file and cleans up', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rig-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const target = join(dir, 'is-a-folder');
  await writeFileAtomic(join(dir, 'keep.json'), 'kept');
  await import('node:fs/promises').then((fs) => fs.mkdir(join(target, 'inner'), { recursive: true }));
  await t.rejects(writeFileAtomic(target, 'x'), { code: /EISDIR|ENOTEMPTY|EEXIST/ });
  t.same((await readdir(dir)).sort(), ['is-a-folder', 'keep.json']);
  await t.rejects(writeFileAtomic(join(dir, 'missing', 'f.json'), 'x'), { code: 'ENOENT' });
});
