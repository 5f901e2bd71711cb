import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertCoverage, coverageFilter, covered } from '../../rig/vm/coverage-files.js';
import { TRACKER_ROOT_ENV, guestCoverage } from '../../rig/vm/guest-coverage.js';

const IMPORT = '"--import=file:///work/main/node_modules/@tapjs/processinfo/dist/esm/import.mjs"';

t.test("under tap's process tracker: node writes the guest's coverage into a fresh folder under .tap", async (t) => {
  for (const env of [{ PATH: '/bin', HOME: '/root' }, { NODE_OPTIONS: '--max-old-space-size=4096', NODE_V8_COVERAGE: '/tmp/c8' }, { [TRACKER_ROOT_ENV]: '' }]) {
    t.equal(guestCoverage(env), undefined, JSON.stringify(env));
  }
  const env = { PATH: '/bin', NODE_OPTIONS: IMPORT, [TRACKER_ROOT_ENV]: '/work/main', _TAPJS_PROCESSINFO_PARENT_: 'u-1', TAP_CHILD_ID: '3' };
  const one = guestCoverage(env)!;
  t.match(one.dir, /^\/work\/main\/\.tap\/guest-coverage-[0-9a-f-]{36}$/);
  t.same(one.env, { NODE_V8_COVERAGE: one.dir }, 'the tracker is not forwarded: no NODE_OPTIONS, no tracker variables');
  t.equal(one.reportDir, '/work/main/.tap/coverage');
  t.not(guestCoverage(env)!.dir, one.dir, 'each run its own folder');
});

t.test('the names are the ones tap gives its tracked processes (this test is one)', async (t) => {
  t.equal(guestCoverage(process.env)?.reportDir, `${process.env[TRACKER_ROOT_ENV]}/.tap/coverage`);
});

t.test("what the tracker would keep, by tap's settings", async (t) => {
  const env = {
    _TAPJS_PROCESSINFO_EXCLUDE_: '/(^(node|tapmock):|[\\\\\\/](\\.tap|tap-snapshots)[\\\\\\/])/',
    _TAPJS_PROCESSINFO_COV_EXCLUDE_: '/^\\/w\\/node_modules/',
    _TAPJS_PROCESSINFO_COV_EXCLUDE_FILES_: '/w/dist/test/a.test.js\n/w/dist/test/fixtures/f.js',
    _TAPJS_PROCESSINFO_COV_FILES_: '',
  };
  const filter = coverageFilter(env);
  for (const [url, sources, kept] of [
    ['file:///w/dist/rig/cli/main.js', ['file:///w/rig/cli/main.ts'], true],
    ['node:internal/main', [], false],
    ['evalmachine.<anonymous>', [], false],
    ['file:///w/node_modules/zod/index.js', [], false],
    ['file:///w/dist/test/a.test.js', [], false],
    ['file:///w/dist/rig/x.js', ['file:///w/dist/test/fixtures/f.js'], false],
    ['file:///w/.tap/x.js', [], false],
  ] as const) {
    t.equal(covered(filter, url, [...sources]), kept, url);
  }
  t.equal(covered(coverageFilter({}), 'file:///w/node_modules/zod/index.js'), false, 'node_modules is left out when tap names nothing');
  t.equal(covered(coverageFilter({}), 'file:///w/dist/rig/x.js'), true);
  const only = coverageFilter({ _TAPJS_PROCESSINFO_COV_FILES_: '/w/rig/a.ts\n' });
  t.equal(covered(only, 'file:///w/dist/rig/a.js', ['file:///w/rig/a.ts']), true, 'named files: by their source');
  t.equal(covered(only, 'file:///w/dist/rig/b.js', ['file:///w/rig/b.ts']), false, 'named files: only those');
});

t.test("node's coverage files become the tracker's: kept scripts and their maps, nothing else", async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rig-cov-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const raw = join(root, 'raw');
  const report = join(root, 'coverage');
  mkdirSync(raw);
  const script = (url: string) => ({ scriptId: '1', url, functions: [{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: 10, count: 1 }] }] });
  const map = { lineLengths: [10], data: { version: 3, sources: ['file:///w/rig/a.ts'], mappings: 'AAAA' } };
  writeFileSync(join(raw, 'coverage-1-1-0.json'), JSON.stringify({
    result: [script('node:fs'), script('file:///w/dist/rig/a.js'), script('file:///w/node_modules/z/i.js')],
    timestamp: 5,
    'source-map-cache': { 'file:///w/dist/rig/a.js': map, 'file:///w/node_modules/z/i.js': map },
  }));
  writeFileSync(join(raw, 'coverage-2-1-0.json'), JSON.stringify({ result: [script('node:fs')] }));
  writeFileSync(join(raw, 'coverage-3-1-0.json'), '{"result": [');
  t.equal(await convertCoverage(raw, report, coverageFilter({})), 1, 'one file kept something; an empty and a cut-off one are skipped');
  const [name] = readdirSync(report);
  t.match(name, /^[0-9a-f-]{36}\.json$/);
  t.same(JSON.parse(readFileSync(join(report, name!), 'utf8')), {
    result: [script('file:///w/dist/rig/a.js')],
    timestamp: 5,
    'source-map-cache': { 'file:///w/dist/rig/a.js': map },
  });
  t.equal(await convertCoverage(join(root, 'none'), report, coverageFilter({})), 0, 'no folder: nothing');
});
