/**
 * The rig image's build context leaves out what its build makes again: the native helpers and the
 * compiled sources. A helper built here and sent along would be newer than its source in the
 * image, so the image's `make -C faults/helper` would keep this machine's binary.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../rig/paths.js';

const ignored = new Set(
  readFileSync(join(PACKAGE_ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#')),
);

t.test("every helper the helper's Makefile builds is left out of the context", async (t) => {
  const makefile = readFileSync(join(PACKAGE_ROOT, 'faults', 'helper', 'Makefile'), 'utf8');
  const all = /^all:(.*)$/m.exec(makefile)?.[1]?.trim().split(/\s+/) ?? [];
  t.ok(all.length >= 3, `the Makefile's all: builds ${all.join(', ')}`);
  for (const binary of all) t.ok(ignored.has(`faults/helper/${binary}`), `faults/helper/${binary}`);
  t.ok(ignored.has('faults/helper/*.o'), 'and its object files');
});

t.test('the compiled sources and the packages are left out too', async (t) => {
  for (const path of ['dist', 'node_modules']) t.ok(ignored.has(path), path);
});
