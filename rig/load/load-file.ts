/**
 * What a live cycle's load acknowledged, kept beside its cut (cut/load.json): the ledger's seq per
 * client and the lifecycle steps, so a crash image rebuilt from the cut with any plan is checked
 * against the same commits as the live cycle was. The throughput and errors stay in cycle.json;
 * the commit timeline (explore) is not kept.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { LoadResult } from './types.js';

export const LOAD_FILE = 'load.json';

interface LoadFile {
  version: 1;
  kind: LoadResult['kind'];
  ledger: boolean;
  note?: string;
  acked: [number, number][];
  ackedCount: number;
  begun?: [number, number][];
  lifecycle?: LoadResult['lifecycle'];
  endedBy: LoadResult['endedBy'];
}

export function writeLoadFile(path: string, load: LoadResult): void {
  const file: LoadFile = {
    version: 1, kind: load.kind, ledger: load.ledger, ...(load.note ? { note: load.note } : {}),
    acked: [...load.acked], ackedCount: load.ackedCount, ...(load.begun ? { begun: [...load.begun] } : {}),
    ...(load.lifecycle ? { lifecycle: load.lifecycle } : {}), endedBy: load.endedBy,
  };
  writeFileSync(path + '.tmp', JSON.stringify(file) + '\n');
  renameSync(path + '.tmp', path);
}

/** The load kept at `path`, or null when the cut has none (a cycle from before it was kept). */
export function readLoadFile(path: string): LoadResult | null {
  let file: LoadFile;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as LoadFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${path}: not a load file the rig wrote (${(error as Error).message})`);
  }
  return {
    kind: file.kind, ledger: file.ledger, ...(file.note ? { note: file.note } : {}),
    acked: new Map(file.acked), ackedCount: file.ackedCount, ...(file.begun ? { begun: new Map(file.begun) } : {}),
    ...(file.lifecycle ? { lifecycle: file.lifecycle } : {}),
    retried: 0, bucketMs: 0, throughput: [], errors: [], durationMs: 0, endedBy: file.endedBy,
  };
}
