/**
 * The dm backend's bad input through the CLI, as a user meets it: one line on stderr, exit 2, and
 * nothing made. RIG_DM_CONTROL points the check at a control node that does not exist, so the
 * kernel's answer is the same on every machine (this one has no device-mapper at all).
 */
import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, leftoversUnder, rig } from '../../fixtures/rig-cli.js';

const NO_DM = { RIG_DM_CONTROL: '/nonexistent/mapper-control' };
const NO_KERNEL = /^rig: --backend dm needs the kernel's device-mapper, and this kernel has none \(no \/nonexistent\/mapper-control\); use --backend fuse, or run the rig inside the QEMU guest that has it: rig vm run -- node dist\/rig\/cli\/main\.js \.\.\.$/;

const root = mkdtempSync(join(tmpdir(), 'rig-dmcli-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
t.before(ensureBuilt);

const cases: { name: string; args: (dir: string) => string[]; env?: Record<string, string>; says: RegExp }[] = [
  { name: 'disk up', args: (d) => ['disk', 'up', '--backend', 'dm', '--dir', d], env: NO_DM, says: NO_KERNEL },
  {
    name: 'disk up with a trigger nobody would watch',
    args: (d) => ['disk', 'up', '--backend', 'dm', '--dir', d, '--trigger', 'armed 16'],
    says: /^rig: --trigger: the dm backend watches its trigger in the process that drives the load \(rig cycle, rig campaign\), and this one ends once the disk is up; use --trigger manual and 'rig disk cut'$/,
  },
  { name: 'cycle', args: (d) => ['cycle', '--backend', 'dm', '--out', d], env: NO_DM, says: NO_KERNEL },
  { name: 'cycle on a durable cache', args: (d) => ['cycle', '--backend', 'dm', '--profile', 'essd', '--out', d], says: /^rig: --backend: --backend dm models a volatile write cache/ },
  { name: 'campaign', args: (d) => ['campaign', 'campaigns/quick.yml', '--backend', 'dm', '--out', d], env: NO_DM, says: NO_KERNEL },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const dir = join(root, c.name.replace(/\W+/g, '-'));
    const r = await rig(c.args(dir), c.env ?? {});
    t.equal(r.exitCode, 2, 'exit 2');
    const lines = r.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${r.stderr}`);
    t.match(lines[0], c.says);
    t.notOk(existsSync(dir), 'nothing made where it was to go');
    t.same(leftoversUnder(root), [], 'no mount or loop device');
  });
}
