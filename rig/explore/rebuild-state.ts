/**
 * Rebuilds an explore state's crash image from its recording alone: the snapshot, every write
 * durable at the barrier, then the pending writes with the state's saved plan, exactly as the
 * exploration built it in place (./state-image.ts), into a new file.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { sha256File } from '../../faults/materialize.js';
import { blocksSha256File } from './image-hash.js';
import { DIGEST_BLOCK } from '../results/crash-image-digest.js';
import { indexRecording, RECORDING_FILE } from '../../faults/recording.js';
import { badInput } from '../errors.js';
import { barriersOf } from './barriers.js';
import { SNAPSHOT_FILE } from './record-load.js';
import { StateImages } from './state-image.js';

/** Which digest the state's record holds: the blocks digest of that block size since explore states have one, the file's sha256 before. */
export type StateDigest = { block: number } | 'sha256';

export async function rebuildStateImage(recordingDir: string, barrierIndex: number, planPath: string, out: string, digest: StateDigest = { block: DIGEST_BLOCK }): Promise<string> {
  for (const f of [RECORDING_FILE, SNAPSHOT_FILE]) {
    if (!existsSync(join(recordingDir, f))) throw badInput(`${join(recordingDir, f)} is missing: this state's crash image cannot be rebuilt`);
  }
  const { barriers, writes } = barriersOf(indexRecording(join(recordingDir, RECORDING_FILE)));
  const barrier = barriers.find((b) => b.index === barrierIndex);
  if (!barrier) throw badInput(`the recording in ${recordingDir} has no barrier ${barrierIndex} with writes pending`);
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as CrashPlan;
  const fd = openSync(join(recordingDir, RECORDING_FILE), 'r');
  const work = join(dirname(out), 'rebuild');
  try {
    mkdirSync(work, { recursive: true });
    const images = await StateImages.create(work, join(recordingDir, SNAPSHOT_FILE), writes, fd, { cleanCopy: false });
    images.advance(barrier.durableCount);
    await images.materialize(barrier.pending, plan);
    renameSync(images.work, out);
  } finally {
    closeSync(fd);
    rmSync(work, { recursive: true, force: true });
  }
  return digest === 'sha256' ? sha256File(out) : blocksSha256File(out, digest.block);
}
