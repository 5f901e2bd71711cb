/**
 * One barrier of a recording written out as the folder a live cut leaves: cut/image.img (the image
 * as it stood at the barrier, every write up to it applied), cut/journal.bin (the writes pending
 * there, each with the bytes it overwrote) and cut/load.json (the ledger at that moment). The
 * barrier is then a cut like any other, to be judged under any plan (rig/cycle/judge-cut.ts).
 * `stateAsCut` does it for a judged explore state, with the state's plan and record beside it.
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { readAt, writeAt } from '../../faults/file-io.js';
import { encodeJournal, type JournalEntry } from '../../faults/journal.js';
import { indexRecording, readRecordedData, RECORDING_FILE, type RecordedWrite } from '../../faults/recording.js';
import { badInput } from '../errors.js';
import { LOAD_FILE, readLoadFile, writeLoadFile } from '../load/load-file.js';
import type { CycleRecord } from '../results/types.js';
import { barriersOf } from './barriers.js';
import { SNAPSHOT_FILE } from './record-load.js';
import type { LoadResult } from '../load/index.js';
import type { Barrier } from './barriers.js';
import { loadAt } from './judge-state.js';

export interface RecordedRun {
  snapshot: string; // the image the recording started from
  recordingPath: string;
  writes: RecordedWrite[]; // every recorded write, in arrival order (Barriers.writes)
  load: LoadResult | null; // null: no ledger kept, the cut gets no load.json
}

/** Writes dir/cut for `barrier`; returns the cycle folder (dir) that now holds it. */
export async function writeBarrierCut(run: RecordedRun, barrier: Barrier, dir: string): Promise<string> {
  const cut = join(dir, 'cut');
  mkdirSync(cut, { recursive: true });
  const image = join(cut, 'image.img');
  await execa('cp', ['--sparse=always', run.snapshot, image + '.tmp']);
  const recording = openSync(run.recordingPath, 'r');
  const fd = openSync(image + '.tmp', 'r+');
  const journal: JournalEntry[] = [];
  try {
    for (const w of run.writes.slice(0, barrier.durableCount)) writeAt(fd, readRecordedData(recording, w), w.offset);
    for (const w of barrier.pending) {
      const data = readRecordedData(recording, w);
      journal.push({ seq: w.seq, offset: w.offset, length: w.length, old: readAt(fd, w.offset, w.length), new: data });
      writeAt(fd, data, w.offset);
    }
  } finally {
    closeSync(fd);
    closeSync(recording);
  }
  writeFileSync(join(cut, 'journal.bin'), encodeJournal(journal));
  if (run.load) writeLoadFile(join(cut, LOAD_FILE), loadAt(run.load, barrier.tUs));
  renameSync(image + '.tmp', image);
  return dir;
}

/**
 * A judged explore state (its folder: cycle.json naming the recording and the barrier, plan.json,
 * load.json) written out as a cut in `dir`, with the state's plan and record there too.
 */
export async function stateAsCut(stateDir: string, record: CycleRecord, dir: string): Promise<string> {
  if (!record.explore) throw badInput(`${stateDir} is not an explore state`);
  const recordingDir = resolve(stateDir, record.explore.recording);
  for (const f of [RECORDING_FILE, SNAPSHOT_FILE]) {
    if (!existsSync(join(recordingDir, f))) throw badInput(`${join(recordingDir, f)} is missing: this state kept no recording to rebuild it from`);
  }
  const { barriers, writes } = barriersOf(indexRecording(join(recordingDir, RECORDING_FILE)));
  const barrier = barriers.find((b) => b.index === record.explore!.barrier);
  if (!barrier) throw badInput(`the recording in ${recordingDir} has no barrier ${record.explore.barrier} with writes pending`);
  const load = readLoadFile(join(stateDir, LOAD_FILE));
  await writeBarrierCut({ snapshot: join(recordingDir, SNAPSHOT_FILE), recordingPath: join(recordingDir, RECORDING_FILE), writes, load }, barrier, dir);
  copyFileSync(join(stateDir, 'plan.json'), join(dir, 'cut', 'plan.json'));
  copyFileSync(join(stateDir, 'cycle.json'), join(dir, 'cycle.json'));
  if (load) copyFileSync(join(stateDir, LOAD_FILE), join(dir, 'cut', LOAD_FILE));
  return dir;
}
