/**
 * `rig disk up` when every loop device is taken: one line naming the problem and `rig cleanup`,
 * exit 2, nothing left behind. The test takes every free loop device up to the kernel's max_loop
 * for as short a time as it can; a kernel that adds loop devices on demand cannot run out of them,
 * and the test says so and skips.
 */
// runs alone: it takes every free loop device, which any other file's disk would need
import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { readRecord } from '../../faults/disk-record.js';
import { maxLoopDevices } from '../../faults/preflight.js';
import { loopBackingFile } from '../../faults/system.js';
import { tearDownDisk } from '../../faults/teardown.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';

const root = mkdtempSync(join(tmpdir(), 'rig-no-free-loop-'));
const env = { RIG_REGISTRY_DIR: join(root, 'registry') };
const dir = join(root, 'disk');

t.before(ensureBuilt);
t.teardown(async () => {
  const record = readRecord(dir);
  if (record) await tearDownDisk(record, { lazy: true });
  rmSync(root, { recursive: true, force: true });
});

/** Attached loop devices, by anyone. */
function attachedLoops(): number {
  return readdirSync('/sys/block').filter((n) => n.startsWith('loop') && loopBackingFile(`/dev/${n}`)).length;
}

t.test('bad input: no free loop device', async (t) => {
  const max = maxLoopDevices() ?? 8;
  const mine: string[] = [];
  t.teardown(async () => {
    for (const dev of mine) await execa('losetup', ['-d', dev], { reject: false });
  });
  const files = join(root, 'loop-fillers');
  mkdirSync(files);
  // take every free loop device, up to the kernel's max_loop, for as short a time as we can
  for (let i = 0; attachedLoops() < max; i++) {
    const file = join(files, `f${i}`);
    await execa('truncate', ['-s', '1M', file]);
    const r = await execa('losetup', ['--find', '--show', file], { reject: false });
    if (r.exitCode !== 0) break;
    mine.push(r.stdout.trim());
  }
  const probe = await execa('losetup', ['--find'], { reject: false });
  if (probe.exitCode === 0) {
    // LOOP_CTL_GET_FREE adds a device when none is free unless max_loop was given at boot or load
    const why =
      `this kernel creates loop devices on demand beyond max_loop=${max} (losetup --find gave ` +
      `${probe.stdout.trim()} with ${attachedLoops()} attached, ${mine.length} of them ours), so no free loop device can be run out of here`;
    for (const dev of mine.splice(0)) await execa('losetup', ['-d', dev], { reject: false });
    t.plan(0, why);
    return;
  }
  const r = await rig(['disk', 'up', '--dir', dir, '--size', '128M'], env);
  for (const dev of mine.splice(0)) await execa('losetup', ['-d', dev], { reject: false });
  t.equal(r.exitCode, 2);
  t.match(String(r.stderr).trim(), /^rig: no free loop device .*rig cleanup'$/);
  t.equal(String(r.stderr).trim().split('\n').length, 1, 'one line');
  t.same(leftoversUnder(dir), [], 'nothing left behind');
});

