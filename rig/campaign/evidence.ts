/**
 * What each cycle's folder keeps, under the campaign's disk cap. A cycle the campaign's evidence
 * policy asks for (evidence-policy.ts: by default one that contradicted its expectation (failing),
 * hit a known finding, whose crash image held a torn page, or whose disk saw the write-ahead order
 * broken) keeps what `rig repro` rebuilds the crash image from: the image at the cut, the journal,
 * the plan, plus the server's error log. Every other cycle sheds the image and keeps only its small
 * files. Each record says which, and why (`evidence`). Over the cap, the oldest
 * passing evidence goes first; failing evidence is never dropped: when it alone exceeds the cap
 * it stays, and a warning says so. An explore state's evidence is its plan and its recording
 * (the snapshot and every write of the run), which all its states share: the recording counts
 * against the cap once, is failing when one of its kept states is, and when it goes, every state
 * of it gives up its evidence.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { RECORDING_FILE } from '../../faults/recording.js';
import { showSize } from '../../faults/sizes.js';
import type { CycleRecord } from '../results/types.js';
import { allocatedBytes } from './allocated-bytes.js';
import { evidenceReason, isFailing, keptWhy, notAskedWhy, type EvidencePolicy } from './evidence-policy.js';

export { isFailing };

/** The files repro needs beyond cycle.json; the image is what makes evidence big. */
const REPRO_FILES = ['cut/image.img', 'cut/journal.bin', 'cut/plan.json'];

interface Kept {
  dir: string;
  bytes: number;
  failing: boolean;
  giveUp: () => void; // passing evidence given up for space
}

/** A recording and the states that keep it as their evidence. */
interface KeptRecording extends Kept {
  states: { record: CycleRecord; dir: string }[];
}

export class EvidenceKeeper {
  private readonly kept: Kept[] = [];
  private readonly recordings = new Map<string, KeptRecording>();
  private warned = false;

  constructor(
    private readonly resultsDir: string,
    private readonly policy: EvidencePolicy,
    private readonly warn: (line: string) => void,
  ) {}

  private get maxBytes(): number {
    return this.policy.maxBytes;
  }

  /** Evidence an earlier, resumed run of this campaign kept: it counts against the cap. */
  adopt(record: CycleRecord): void {
    if (record.evidenceDir === null) return;
    const dir = join(this.resultsDir, record.evidenceDir);
    this.keep(record, dir);
    if (record.explore) this.keepRecording(resolve(dir, record.explore.recording), [{ record, dir }]);
  }

  /**
   * After an explore cycle: its recording is kept while one of its states keeps evidence, and
   * counts against the cap; otherwise it goes now.
   */
  settleRecording(recordingDir: string, states: { record: CycleRecord; dir: string }[]): void {
    const keeping = states.filter((s) => s.record.evidenceDir !== null);
    if (keeping.length === 0) rmSync(recordingDir, { recursive: true, force: true });
    else this.keepRecording(recordingDir, keeping);
    this.holdUnderCap();
  }

  private keep(record: CycleRecord, dir: string): number {
    const bytes = allocatedBytes(dir);
    const cap = showSize(this.maxBytes);
    this.kept.push({ dir, bytes, failing: isFailing(record), giveUp: () => drop(record, dir, cap) });
    return bytes;
  }

  private keepRecording(dir: string, states: { record: CycleRecord; dir: string }[]): void {
    const known = this.recordings.get(dir);
    if (known) {
      known.states.push(...states);
      known.failing ||= states.some((s) => isFailing(s.record));
      return;
    }
    const kept: KeptRecording = {
      dir,
      bytes: allocatedBytes(dir),
      failing: states.some((s) => isFailing(s.record)),
      states: [...states],
      giveUp: () => {
        rmSync(dir, { recursive: true, force: true });
        for (const s of kept.states) drop(s.record, s.dir, showSize(this.maxBytes));
      },
    };
    this.recordings.set(dir, kept);
    this.kept.push(kept);
  }

  /** Decides what a finished cycle's folder keeps, then holds the total under the cap. */
  settle(record: CycleRecord, cycleDir: string): void {
    const complete = record.explore
      ? existsSync(join(cycleDir, 'plan.json')) && existsSync(resolve(cycleDir, record.explore.recording, RECORDING_FILE))
      : REPRO_FILES.every((f) => existsSync(join(cycleDir, f)));
    const reason = evidenceReason(record, this.policy);
    if (reason && complete) {
      record.evidenceDir = relative(this.resultsDir, cycleDir);
      record.evidence = { kept: reason, why: keptWhy(reason, record, this.policy), bytes: 0 };
      record.evidence.bytes = this.keep(record, cycleDir);
    } else {
      rmSync(join(cycleDir, 'cut', 'image.img'), { force: true });
      record.evidenceDir = null;
      record.evidence = { kept: null, why: reason ? 'incomplete: the cycle did not leave every file repro needs' : notAskedWhy(this.policy), bytes: 0 };
    }
    writeRecord(record, cycleDir);
    this.holdUnderCap();
  }

  totalBytes(): number {
    return this.kept.reduce((sum, k) => sum + k.bytes, 0);
  }

  private holdUnderCap(): void {
    while (this.totalBytes() > this.maxBytes) {
      const oldestPassing = this.kept.findIndex((k) => !k.failing);
      if (oldestPassing < 0) {
        if (this.warned) return;
        this.warned = true;
        this.warn(
          `evidence: failing cycles alone keep ${showSize(this.totalBytes())}, over the cap of ${showSize(this.maxBytes)}; ` +
            'all of it is kept (failing evidence is never dropped): raise evidence.maxBytes or free space',
        );
        return;
      }
      const [dropped] = this.kept.splice(oldestPassing, 1);
      dropped!.giveUp();
    }
  }
}

/** Passing evidence given up for space: the image and journal go, the record says so. */
function drop(record: CycleRecord, dir: string, cap: string): void {
  rmSync(join(dir, 'cut', 'image.img'), { force: true });
  rmSync(join(dir, 'cut', 'journal.bin'), { force: true });
  record.evidenceDir = null;
  const asked = record.evidence?.why ? ` (kept because ${record.evidence.why})` : '';
  record.evidence = { kept: null, why: `given up for the cap of ${cap}${asked}`, bytes: 0 };
  writeRecord(record, dir);
}

function writeRecord(record: CycleRecord, cycleDir: string): void {
  writeFileSync(join(cycleDir, 'cycle.json'), JSON.stringify(record, null, 1) + '\n');
}
