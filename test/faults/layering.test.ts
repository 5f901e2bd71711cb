/**
 * The disk (faults/) is a library of its own: it imports nothing from the rig (rig/, reports/),
 * so its types, errors and defaults stay the disk's, and the rig depends on it, never the reverse.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../rig/paths.js';

t.test('no module of faults/ imports from rig/ or reports/', async (t) => {
  const dir = join(PACKAGE_ROOT, 'faults');
  const modules = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  t.ok(modules.length > 10, `${modules.length} modules read`);
  const reaching = modules.flatMap((file) =>
    [...readFileSync(join(dir, file), 'utf8').matchAll(/from '((?:\.\.\/)+(?:rig|reports)\/[^']*)'/g)].map((m) => `${file}: ${m[1]}`),
  );
  t.same(reaching, [], 'imports that reach into the rig');
});
