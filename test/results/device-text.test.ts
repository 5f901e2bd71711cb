/** The few words a summary and the report give a cycle's device (rig/results/device-text.ts). */
import t from 'tap';
import { DEFAULT_DISK } from '../../rig/defaults.js';
import { describeDevice } from '../../rig/results/device-text.js';
import type { DiskSettings } from '../../rig/results/types.js';

const disk: DiskSettings = { ...DEFAULT_DISK };

t.equal(describeDevice(disk), 'local (volatile cache)', 'the FUSE disk, as before there was a choice');
t.equal(describeDevice({ ...disk, backend: 'dm' }), 'local (volatile cache, cut by dm-flakey)', 'the kernel path says so');
t.equal(describeDevice({ ...disk, profile: 'essd', model: { ...disk.model, cache: 'durable' } }), 'essd (durable cache)');
