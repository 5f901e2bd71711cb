/**
 * What a barrier offers the scenario's claim, for targeted picking. Doublewrite scenarios want
 * home writes in flight whose doublewrite copy is already durable (what doublewrite claims to
 * survive: the live disk's aimed cut counts the same, faults/helper: copy-range); never-torn
 * scenarios want page writes in flight; the negative control wants page writes that can tear (more
 * than one atomic unit). Only writes to the tablespaces count as page writes (a page-sized write to
 * the redo log tears no page). A score of 0 means the barrier cannot exercise the claim at all.
 */
import { createHash } from 'node:crypto';
import type { RecordedWrite } from '../../faults/recording.js';
import { unitSpan } from '../../faults/crash-plan.js';
import type { DeviceRange } from '../pages/device-ranges.js';
import { writesPageCopies, type DoublewriteSetting } from '../results/doublewrite-mode.js';
import type { Expectation } from '../results/types.js';
import type { Barriers } from './barriers.js';

export interface TargetContext {
  expectation: Expectation;
  doublewrite: DoublewriteSetting;
  pageSize: number;
  atomicUnit: number;
  copyRanges: DeviceRange[]; // the doublewrite area on the device (empty without doublewrite)
  pageRanges: DeviceRange[]; // the tablespaces' extents when the run began (empty: count every page write)
  readData: (w: RecordedWrite) => Buffer;
}

export type TargetClaim = 'home-writes-with-durable-copies' | 'page-writes-in-flight' | 'page-writes-that-can-tear';

export function targetClaim(ctx: Pick<TargetContext, 'expectation' | 'doublewrite'>): TargetClaim {
  if (ctx.expectation === 'never-torn') return 'page-writes-in-flight';
  if (ctx.expectation === 'recovers' && writesPageCopies(ctx.doublewrite)) return 'home-writes-with-durable-copies';
  return 'page-writes-that-can-tear';
}

/** Whether the write touches any of the ranges. */
export function inRanges(w: RecordedWrite, ranges: DeviceRange[]): boolean {
  return ranges.some((r) => w.offset < r.offset + r.length && r.offset < w.offset + w.length);
}

const isPageSized = (w: RecordedWrite, pageSize: number): boolean => w.length >= pageSize && w.length % pageSize === 0;

/** The sha1 of each whole page of `data`, pages counted from byte `first`. */
export function pageHashes(data: Buffer, pageSize: number, first = 0): string[] {
  const out: string[] = [];
  for (let at = first; at + pageSize <= data.length; at += pageSize) out.push(createHash('sha1').update(data.subarray(at, at + pageSize)).digest('hex'));
  return out;
}

/**
 * The whole copies a write into the doublewrite area carries. The block layer splits a large
 * batch into requests of its own size, so a request can start in the middle of a slot: slots are
 * counted from the start of the range (of the area's extents) the write falls in, and a copy cut
 * by a split is in neither request whole.
 */
export function copyHashes(w: RecordedWrite, data: Buffer, ranges: DeviceRange[], pageSize: number): string[] {
  const range = ranges.find((r) => w.offset >= r.offset && w.offset < r.offset + r.length);
  if (!range) return [];
  return pageHashes(data, pageSize, (pageSize - ((w.offset - range.offset) % pageSize)) % pageSize);
}

/** Each barrier's score (by barrier index) under the scenario's claim. */
export function targetScores(b: Barriers, ctx: TargetContext): Map<number, number> {
  const claim = targetClaim(ctx);
  const scores = new Map<number, number>();
  const isPageWrite = (w: RecordedWrite, pageSize: number): boolean =>
    isPageSized(w, pageSize) && (ctx.pageRanges.length === 0 || inRanges(w, ctx.pageRanges));
  const canTear = (w: RecordedWrite): boolean => unitSpan(w.offset, w.length, ctx.atomicUnit).count > 1;
  if (claim !== 'home-writes-with-durable-copies') {
    for (const barrier of b.barriers) {
      const pages = barrier.pending.filter((w) => isPageWrite(w, ctx.pageSize) && (claim === 'page-writes-in-flight' || canTear(w)));
      scores.set(barrier.index, pages.length);
    }
    return scores;
  }
  const durable = new Set<string>();
  let copied = 0; // writes whose copies are in `durable`
  for (const barrier of b.barriers) {
    for (; copied < barrier.durableCount; copied++) {
      const w = b.writes[copied]!;
      if (w.length >= ctx.pageSize && inRanges(w, ctx.copyRanges)) for (const h of copyHashes(w, ctx.readData(w), ctx.copyRanges, ctx.pageSize)) durable.add(h);
    }
    let home = 0;
    for (const w of barrier.pending) {
      if (!isPageWrite(w, ctx.pageSize) || inRanges(w, ctx.copyRanges) || !canTear(w)) continue;
      home += pageHashes(ctx.readData(w), ctx.pageSize).filter((h) => durable.has(h)).length;
    }
    scores.set(barrier.index, home);
  }
  return scores;
}
