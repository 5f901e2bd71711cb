/**
 * What the dm backend needs before it makes anything: the kernel's device-mapper with the flakey
 * and log-writes targets, dmsetup, and a device model it can honour (a volatile cache, no timing:
 * the kernel path adds no delay of its own). Each failure is one line naming the fix.
 */
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { diskBadInput } from '../disk-error.js';
import type { DeviceModel } from '../device-model.js';
import { commandExists } from '../system.js';
import { CONTROL } from './dmsetup.js';

const TARGETS = ['flakey', 'log-writes'];
const ELSEWHERE = "use --backend fuse, or run the rig inside the QEMU guest that has it: rig vm run -- node dist/rig/cli/main.js ...";

export async function preflightDm(model: DeviceModel, opts: { recording: boolean; watcher: string; control?: string }): Promise<void> {
  const control = opts.control ?? CONTROL;
  if (!existsSync(opts.watcher)) throw diskBadInput(`the dm disk's watcher ${opts.watcher} is not built; run make build`);
  if (!existsSync(control)) {
    await execa('modprobe', ['dm-mod'], { reject: false });
    if (!existsSync(control)) throw diskBadInput(`--backend dm needs the kernel's device-mapper, and this kernel has none (no ${control}); ${ELSEWHERE}`);
  }
  const problem = dmModelProblem(model, opts.recording);
  if (problem) throw diskBadInput(problem);
  // the kernel's targets do not come and go under a running rig: asked once per process
  if (kernelChecked.has(control)) return;
  if (!(await commandExists('dmsetup'))) throw diskBadInput('--backend dm needs dmsetup; apt-get install dmsetup');
  let targets = await listTargets();
  if (!TARGETS.every((t) => targets.includes(t))) {
    await execa('modprobe', ['-a', 'dm-flakey', 'dm-log-writes'], { reject: false });
    targets = await listTargets();
  }
  const missing = TARGETS.filter((t) => !targets.includes(t));
  if (missing.length) throw diskBadInput(`--backend dm needs the device-mapper target${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}, which this kernel lacks; ${ELSEWHERE}`);
  kernelChecked.add(control);
}

const kernelChecked = new Set<string>();

/** What the dm backend cannot model: a durable cache, timing, a recording (explore). */
export function dmModelProblem(model: DeviceModel, recording: boolean): string | null {
  if (model.cache !== 'volatile') {
    return '--backend dm models a volatile write cache (a write is durable once a flush covers it); this profile has a durable one: use --backend fuse for it';
  }
  if (model.writeLatency.length || model.flushLatency.length || model.iops || model.bandwidthBytes || model.queueDepth) {
    return '--backend dm adds no timing of its own; this profile sets latency or limits: use --backend fuse for it, or the local profile';
  }
  return recording ? 'explore records every write through the FUSE helper; use --backend fuse for it' : null;
}

async function listTargets(): Promise<string[]> {
  const r = await execa('dmsetup', ['targets'], { reject: false });
  return r.exitCode === 0 ? r.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0]!).filter(Boolean) : [];
}
