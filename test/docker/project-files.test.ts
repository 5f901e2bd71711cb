/** The rig image's build context: every project file by relative path, node_modules and .git not walked. */
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectFiles } from '../../rig/docker/project-files.js';

t.test('lists files by relative path, sorted, without walking node_modules or .git', async (t) => {
  const root = t.testdir({
    'package.json': '{}',
    rig: { 'a.ts': '', cli: { 'main.ts': '' } },
    node_modules: { x: { 'index.js': '' } },
    '.git': { HEAD: '' },
    reports: { 'html.ts': '', latest: { 'index.html': '' } },
  });
  mkdirSync(join(root, 'empty'));
  writeFileSync(join(root, '.dockerignore'), 'reports/**\n');
  t.same(await projectFiles(root), ['.dockerignore', 'package.json', 'reports/html.ts', 'reports/latest/index.html', 'rig/a.ts', 'rig/cli/main.ts']);
});
