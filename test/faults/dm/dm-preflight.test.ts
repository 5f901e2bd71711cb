/**
 * What the dm backend refuses before it makes anything (faults/dm/dm-preflight.ts): a kernel
 * without device-mapper, an unbuilt watcher, and the device models it cannot honour. Each is one
 * line of bad input naming the fix.
 */
import t from 'tap';
import { dmModelProblem, preflightDm } from '../../../faults/dm/dm-preflight.js';
import { DiskError } from '../../../faults/disk-error.js';
import { shippedProfile } from '../../../faults/device-profile.js';

const LOCAL = shippedProfile('local').device;

t.test('the models it honours and those it does not', async (t) => {
  t.equal(dmModelProblem(LOCAL, false), null, 'local: a volatile cache and no timing');
  t.match(dmModelProblem(shippedProfile('essd').device, false), /^--backend dm models a volatile write cache .* this profile has a durable one: use --backend fuse for it$/);
  const timed = /^--backend dm adds no timing of its own; this profile sets latency or limits: use --backend fuse for it, or the local profile$/;
  t.match(dmModelProblem({ ...shippedProfile('nvme').device, cache: 'volatile' }, false), timed, 'latency');
  t.match(dmModelProblem({ ...LOCAL, iops: 1000 }, false), timed, 'a limit');
  t.match(dmModelProblem(LOCAL, true), /^explore records every write through the FUSE helper; use --backend fuse for it$/);
});

t.test('a kernel without device-mapper, or no watcher: one line of bad input', async (t) => {
  const noControl = preflightDm(LOCAL, { recording: false, watcher: process.execPath, control: '/nonexistent/control' });
  await t.rejects(noControl, { name: 'DiskError', code: 'bad-input', message: /^--backend dm needs the kernel's device-mapper, and this kernel has none \(no \/nonexistent\/control\); use --backend fuse, or run the rig inside the QEMU guest that has it: rig vm run -- node dist\/rig\/cli\/main\.js \.\.\.$/ });
  const noWatcher = preflightDm(LOCAL, { recording: false, watcher: '/nonexistent/pfdm-watch' });
  await t.rejects(noWatcher, new DiskError('bad-input', "the dm disk's watcher /nonexistent/pfdm-watch is not built; run make build"));
});
