/**
 * Rebuilds a cycle's crash image from its evidence (the image at the cut, the journal, the plan;
 * an explore state's from its recording and plan),
 * checks the sha256 against the record, and serves it on a power-fail disk for hands-on work.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { badInput, rigFailure } from '../errors.js';
import type { CycleRecord } from '../results/types.js';
import { rebuildCrashImage } from '../../faults/crash-image.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { readRecord, type DiskRecord } from '../../faults/disk-record.js';
import type { PowerFailDisk } from '../../faults/power-fail-disk.js';
import { startDisk } from '../../faults/start-disk.js';
import { tearDownDisk } from '../../faults/teardown.js';
import { diskOptionsFor } from '../cycle/disk-options.js';
import { rebuildStateImage } from '../explore/rebuild-state.js';
import { blocksDigestName, digestBlockOf } from '../results/crash-image-digest.js';

export function reproDir(cycleDir: string): string {
  return join(cycleDir, 'repro');
}

export function loadCycleRecord(cycleDir: string): CycleRecord {
  const path = join(cycleDir, 'cycle.json');
  if (!existsSync(path)) throw badInput(`${cycleDir} holds no cycle.json; name a 'rig cycle --out' folder or a campaign's DIR/cycles/ID`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw badInput(`${path} is not JSON (${(error as Error).message}); name a folder whose cycle.json the rig wrote`);
  }
  const problem = recordProblem(value);
  if (problem) throw badInput(`${path} ${problem}, so it is no cycle record the rig wrote; name a 'rig cycle --out' folder or a campaign's DIR/cycles/ID`);
  return value as CycleRecord;
}

/** What a cycle.json lacks that every command reading one relies on (its id, verdict, settings,
 * checks). */
function recordProblem(value: unknown): string | null {
  const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!object(value)) return 'is not a JSON object';
  if (typeof value.id !== 'string' || typeof value.verdict !== 'string') return 'has no id or verdict';
  const s = value.settings;
  if (!object(s) || !object(s.server) || !object(s.disk) || !object(s.load)) return 'has no server, disk and load settings';
  // what the failure's signature and the findings read (an older rig's record had none of them)
  const checks = value.invariants;
  if (!object(checks) || !Array.isArray(checks.violations) || !Array.isArray(value.tornPagesBefore) || !object(value.errorLog)) {
    return 'has no invariants, torn pages or error log as this rig records them';
  }
  return null;
}

/** The repro disk's record in `dir`, when it is this folder's: one copied along with a cycle's
 * folder names the disk of the folder it came from, which is not this repro's to take down. */
function ownRecord(dir: string): DiskRecord | null {
  const record = readRecord(dir);
  return record && record.dir === resolve(dir) ? record : null;
}

/** `progress` hears once the evidence is there and the rebuild starts. */
export async function rebuildAndServe(cycleDir: string, environment?: DiskEnvironment, progress?: (line: string) => void): Promise<{ record: CycleRecord; disk: PowerFailDisk; check: string }> {
  const record = loadCycleRecord(cycleDir);
  const cut = join(cycleDir, 'cut');
  const evidence = record.explore ? ['plan.json'] : ['cut/image.img', 'cut/journal.bin', 'cut/plan.json'];
  for (const f of evidence) {
    if (!existsSync(join(cycleDir, f))) throw badInput(`${cycleDir} kept no evidence (${f} is missing): this cycle's crash image cannot be rebuilt`);
  }
  progress?.('rebuilding the crash image');
  const dir = reproDir(cycleDir);
  const earlier = ownRecord(dir);
  if (earlier) await tearDownDisk(earlier);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const image = join(dir, 'crash.img');
  const blocks = Boolean(record.explore && record.crashImageBlocksSha256);
  const digest = record.explore
    ? await rebuildStateImage(resolve(cycleDir, record.explore.recording), record.explore.barrier, join(cycleDir, 'plan.json'), image, blocks ? { block: digestBlockOf(record) } : 'sha256')
    : await rebuildCrashImage(join(cut, 'image.img'), join(cut, 'journal.bin'), join(cut, 'plan.json'), image);
  const expected = blocks ? record.crashImageBlocksSha256 : record.crashImageSha256;
  const check = `${blocks ? blocksDigestName(digestBlockOf(record)) : 'sha256'} ${digest}`;
  if (expected && digest !== expected) {
    rmSync(dir, { recursive: true, force: true });
    throw rigFailure(`rebuilt crash image has ${check}, the record says ${expected}`);
  }
  // served on the FUSE disk whatever backend the cycle cut on: the crash image is the same bytes,
  // and a dm cycle's repro then runs where the kernel has no device-mapper
  const disk = await startDisk({ ...diskOptionsFor(record.settings, dir, { adoptImage: image }, environment), backend: 'fuse' });
  return { record, disk, check }; // check: the digest the rebuild matched, named
}

export async function reproDown(cycleDir: string): Promise<boolean> {
  const record = ownRecord(reproDir(cycleDir));
  if (!record) return false;
  const report = await tearDownDisk(record);
  if (report.problems.length) throw rigFailure(`repro teardown: ${report.problems.join('; ')}; run 'rig cleanup'`);
  return true;
}
