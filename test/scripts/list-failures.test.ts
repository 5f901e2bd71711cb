// The failure list that ends a run: each failed assertion by its subtest path, nothing that passed,
// was skipped or is a known todo, and a parent only when no failure inside it explains it.
import t from 'tap';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../rig/paths.js';

// a plain .mjs script of the test runner, with no type declarations, found from the top level (the
// tests run compiled, from dist/test/)
const { failuresIn } = await import(pathToFileURL(join(PACKAGE_ROOT, 'scripts', 'list-failures.mjs')).href);

type Failure = { path: string[]; detail: string };
const failures = (tap: string): Failure[] => failuresIn(tap) as Failure[];

const NESTED = `TAP version 14
# Subtest: outer
    # Subtest: inner
        not ok 1 - one is two
          ---
          at:
            fileName: test/x.test.ts
            lineNumber: 3
          found: 1
          wanted: 2
          ...
        ok 2 - should be equal
        1..2
    not ok 1 - inner # time=51.5ms
      ---
      at:
        fileName: test/x.test.ts
        lineNumber: 2
      ...
    ok 2 - fine
    not ok 3 - later # TODO not yet
    not ok 4 - elsewhere # SKIP no disk
    1..4
not ok 1 - outer # time=69.4ms
# Subtest: own
    ok 1 - all good
    1..1
not ok 2 - own # time=5016ms
  ---
  signal: null
  expired: TAP
  ...
# Subtest: passes
    ok 1 - yes
    1..1
ok 3 - passes # time=1ms
1..3
`;

t.test('a nested failure is named by its path, its parents are not listed again', async (t) => {
  t.same(failures(NESTED), [
    { path: ['outer', 'inner', 'one is two'], detail: 'at test/x.test.ts:3, found 1, wanted 2' },
    { path: ['own'], detail: '' },
  ]);
});

t.test('a run with no failure lists none', async (t) => {
  t.same(failures('TAP version 14\nok 1 - a\nok 2 - b # time=1ms\n1..2\n'), []);
});

t.test('a timeout inside a subtest is named, its parent is not', async (t) => {
  const tap = '# Subtest: hangs\n    ok 1 - a\n    not ok 2 - timeout!\n      ---\n      expired: TAP\n      ...\n    1..2\nnot ok 1 - hangs # time=5016.4ms\n1..1\n';
  t.same(failures(tap).map((f) => f.path), [['hangs', 'timeout!']]);
});
