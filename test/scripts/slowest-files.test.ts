// The time budget that ends a run: each file's line picked out of tap's output however its chunks
// split it (subtests' lines and tap's own timeout line are not files), the slowest ten listed.
import t from 'tap';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../rig/paths.js';

// a plain .mjs script of the test runner, with no type declarations, found from the top level (the
// tests run compiled, from dist/test/)
const { fileTimesIn, slowestLines } = await import(pathToFileURL(join(PACKAGE_ROOT, 'scripts', 'slowest-files.mjs')).href);

type FileTime = { file: string; ms: number | null };
const timesIn = (text: string) => fileTimesIn(text) as { files: FileTime[]; rest: string };
const linesOf = (files: FileTime[], wallMs: number): string[] => slowestLines(files, wallMs) as string[];

const RUN = `TAP version 14
1..4
# Subtest: test/a.test.ts
    ok 1 - inner # time=3.5ms
    1..1
    # time=24.282ms
ok 1 - test/a.test.ts # time=24.282ms

# Subtest: test/b.int.test.ts
    not ok 1 - one is two
    1..1
not ok 2 - test/b.int.test.ts # time=62974.762ms
  ---
  exitCode: 1
  ...

# Subtest: test/c.docker.test.ts
    1..0 # no Docker engine answers
ok 3 - test/c.docker.test.ts # SKIP no Docker engine answers

not ok 4 - timeout!
  ---
  expired: test/d.test.ts
  ...

# { total: 4, pass: 1, fail: 2, skip: 1 }
# time=63100.1ms
`;

const WANTED: FileTime[] = [
  { file: 'test/a.test.ts', ms: 24.282 },
  { file: 'test/b.int.test.ts', ms: 62974.762 },
  { file: 'test/c.docker.test.ts', ms: null },
];

t.test('each file line is found, with its time, or none when the file skipped whole', async (t) => {
  t.same(timesIn(RUN), { files: WANTED, rest: '' });
});

t.test('a line split across chunks is found once, whole', async (t) => {
  for (const size of [1, 7, 50]) {
    const files: FileTime[] = [];
    let rest = '';
    for (let at = 0; at < RUN.length; at += size) {
      const found = timesIn(rest + RUN.slice(at, at + size));
      files.push(...found.files);
      rest = found.rest;
    }
    t.same(files, WANTED, `chunks of ${size} characters`);
  }
});

t.test('the slowest ten, slowest first, then how many files tap ran in how long', async (t) => {
  const files = Array.from({ length: 12 }, (_, i): FileTime => ({ file: `test/f${i}.test.ts`, ms: i * 1000 + 0.4 }));
  files.push({ file: 'test/slow.int.test.ts', ms: 461_249 }, { file: 'test/c.docker.test.ts', ms: null });
  t.same(linesOf(files, 2_538_000), [
    '# slowest files:',
    '#   461.2 s  test/slow.int.test.ts',
    ...[11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `#  ${String(i).padStart(4)}.0 s  test/f${i}.test.ts`),
    '# tap ran 14 files in 42.3 min',
  ]);
});

t.test('with no file timed, only the total', async (t) => {
  t.same(linesOf([], 6000), ['# tap ran 0 files in 0.1 min']);
});
