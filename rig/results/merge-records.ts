/**
 * The records of every shard as one stream in the campaign's order (campaign-order.ts). Each
 * shard's file is in that order already, so this is a k-way merge of their streams: only each
 * shard's next record is held, whatever the run's size. A shard whose records go out of that
 * order, a record in two shards, and a record of no scenario of the campaign are bad input.
 * Evidence stays where the shard kept it: a record's evidence path is made relative to OUT.
 */
import { isAbsolute, join, relative } from 'node:path';
import { badInput } from '../errors.js';
import { CampaignOrder, compareKeys, type OrderKey } from './campaign-order.js';
import type { OpenedResults } from './load-results.js';
import type { CycleRecord } from './types.js';

interface Head {
  shard: OpenedResults;
  records: AsyncGenerator<CycleRecord>;
  record: CycleRecord;
  key: OrderKey;
}

export async function* mergeRecords(shards: OpenedResults[], order: CampaignOrder, outDir: string): AsyncGenerator<CycleRecord> {
  const streams = shards.map((shard) => ({ shard, records: shard.records() }));
  const ids = new Set<string>();
  try {
    // one head per shard with records left, kept in shard order so that equal keys keep it
    const heads = (await Promise.all(streams.map((s) => next(s, order, null)))).filter((h): h is Head => h !== null);
    while (heads.length > 0) {
      let first = 0;
      for (let i = 1; i < heads.length; i++) if (compareKeys(heads[i]!.key, heads[first]!.key) < 0) first = i;
      const head = heads[first]!;
      const { record } = head;
      if (ids.has(record.id)) throw badInput(`cycle ${record.id} appears in more than one shard; the shards overlap, so merge each shard once`);
      ids.add(record.id);
      yield rebaseEvidence(record, head.shard.dir, outDir);
      const after = await next(head, order, head);
      if (after) heads[first] = after;
      else heads.splice(first, 1);
    }
  } finally {
    await Promise.all(streams.map((s) => s.records.return(undefined)));
  }
}

/** The shard's next record, checked to come no earlier than `previous`; null when none is left. */
async function next(stream: Pick<Head, 'shard' | 'records'>, order: CampaignOrder, previous: Head | null): Promise<Head | null> {
  const { value: record, done } = await stream.records.next();
  if (done) return null;
  const key = order.key(record);
  if (!key) throw badInput(`cycle ${record.id} belongs to no scenario of the campaign; the results file is damaged`);
  if (previous && compareKeys(key, previous.key) < 0) {
    throw badInput(
      `${stream.shard.recordsFile}: cycle ${record.id} comes after ${previous.record.id}, out of the campaign's order (scenario by scenario ` +
        "as the campaign lists them, then by cycle); the file was edited or damaged: run that shard's command again with --resume, which rewrites it in order",
    );
  }
  return { ...stream, record, key };
}

function rebaseEvidence(record: CycleRecord, shardDir: string, outDir: string): CycleRecord {
  if (record.evidenceDir === null || isAbsolute(record.evidenceDir)) return record;
  return { ...record, evidenceDir: relative(outDir, join(shardDir, record.evidenceDir)) || '.' };
}
