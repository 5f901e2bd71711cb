import t from 'tap';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderState, writtenSince } from '../rig/folder-state.js';

t.test('a folder that is not there has no state', async (t) => {
  t.equal(folderState(join(tmpdir(), 'rig-folder-state-none')), null);
});

t.test('what was written since: new, replaced, rewritten; not what stayed or went', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-folder-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['kept', 'rewritten', 'replaced', 'removed']) writeFileSync(join(dir, name), name);
  mkdirSync(join(dir, 'sub'));
  const before = folderState(dir);
  if (!before) return t.fail('the folder has a state');
  t.same([...before.keys()].sort(), ['kept', 'removed', 'replaced', 'rewritten', 'sub']);
  writeFileSync(join(dir, 'rewritten'), 'longer than before');
  writeFileSync(join(dir, 'replacement'), 'REPLACED'); // the same size as before
  renameSync(join(dir, 'replacement'), join(dir, 'replaced')); // another inode under the same name
  rmSync(join(dir, 'removed'));
  writeFileSync(join(dir, 'new'), 'new');
  writeFileSync(join(dir, 'sub', 'inside'), 'x'); // the folder's own entry changes
  t.same(writtenSince(dir, before).sort(), ['new', 'replaced', 'rewritten', 'sub']);
  t.same(writtenSince(join(dir, 'gone'), before), [], 'a folder gone since has nothing written');
});
