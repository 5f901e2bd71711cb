import t from 'tap';
import { TRACKER_ROOT_ENV, guestCoverage } from '../../rig/vm/guest-coverage.js';

const IMPORT = '"--import=file:///work/main/node_modules/@tapjs/processinfo/dist/esm/import.mjs"';

t.test("under tap's process tracker: its variables and NODE_OPTIONS forwarded, its .tap folder shared", async (t) => {
  for (const [env, expected] of [
    [{ PATH: '/bin', HOME: '/root' }, undefined],
    [{ NODE_OPTIONS: '--max-old-space-size=4096', NODE_V8_COVERAGE: '/tmp/c8' }, undefined],
    [{ [TRACKER_ROOT_ENV]: '' }, undefined],
    [
      { PATH: '/bin', NODE_OPTIONS: IMPORT, [TRACKER_ROOT_ENV]: '/work/main', _TAPJS_PROCESSINFO_PARENT_: 'u-1', _TAPJS_PROCESSINFO_EXCLUDE_: '/(^(node|tapmock):)/', TAP_CHILD_ID: '3' },
      { env: { NODE_OPTIONS: IMPORT, [TRACKER_ROOT_ENV]: '/work/main', _TAPJS_PROCESSINFO_PARENT_: 'u-1', _TAPJS_PROCESSINFO_EXCLUDE_: '/(^(node|tapmock):)/' }, dir: '/work/main/.tap' },
    ],
  ] as const) {
    t.same(guestCoverage(env), expected, JSON.stringify(env));
  }
});

t.test('the names are the ones tap gives its tracked processes (this test is one)', async (t) => {
  t.equal(guestCoverage(process.env)?.dir, `${process.env[TRACKER_ROOT_ENV]}/.tap`);
  t.match(guestCoverage(process.env)?.env.NODE_OPTIONS, /@tapjs\/processinfo/);
});
