/**
 * cycles.jsonl of a campaign that is still running, brought up to date after every cycle without
 * writing the whole file each time (which made an unsharded run of n cycles write O(n^2) bytes).
 * The records a save is given usually extend those on disk by one: those are appended, and
 * synced. The whole file is written again (atomically) only when the records on disk are not a
 * prefix of the new ones: the first save of a process (the file may hold a resumed run's records,
 * or a tail an interrupted append left), and a save after the evidence cap gave up an earlier
 * cycle's evidence, which changes its record. results.json, written after the records, counts
 * those a reader takes: lines past its count (a cut-off append) are not read while the run is
 * running (rig/results/load-results.ts).
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CYCLES_FILE, writeCycleRecords } from './results-file.js';
import type { CycleRecord } from './types.js';

/** What identifies a line on disk: the record's id and the fields the evidence cap may change. */
function lineKey(record: CycleRecord): string {
  return `${record.id}\n${JSON.stringify([record.evidenceDir, record.evidence ?? null])}`;
}

export class RunningRecordsFile {
  private onDisk: string[] | null = null; // the keys of the lines on disk, once this process wrote them

  /** Counts of the saves so far, for the bench and the tests: appended records, whole rewrites. */
  readonly writes = { appended: 0, rewrites: 0 };

  constructor(private readonly dir: string) {}

  /** Makes cycles.jsonl hold `records`, in order. */
  async save(records: readonly CycleRecord[]): Promise<void> {
    const keys = records.map(lineKey);
    const had = this.onDisk;
    const extends_ = had !== null && had.length <= keys.length && had.every((key, i) => key === keys[i]);
    if (extends_) {
      if (keys.length > had.length) await this.append(records.slice(had.length));
    } else {
      await writeCycleRecords(this.dir, records);
      this.writes.rewrites += 1;
    }
    this.onDisk = keys;
  }

  private async append(records: readonly CycleRecord[]): Promise<void> {
    this.onDisk = null; // until the append is whole and synced, the next save rewrites
    const file = await open(join(this.dir, CYCLES_FILE), 'a');
    try {
      await file.writeFile(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      await file.sync();
    } finally {
      await file.close();
    }
    this.writes.appended += records.length;
  }
}
