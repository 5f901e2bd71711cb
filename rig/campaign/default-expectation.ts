/**
 * The expectation a scenario has when it names none (DESIGN.md, "The oracle"): doublewrite on
 * recovers; doublewrite off with an atomic unit that covers a page never tears; doublewrite off
 * with a smaller unit is the negative control that must reproduce torn pages, unless it is MySQL's
 * DETECT_ONLY, which must detect them. The load's tables on RocksDB keep every acknowledged commit
 * or refuse on a torn log tail, whatever the atomic unit: RocksDB writes no pages in place.
 */
import { writesPageCopies } from '../results/doublewrite-mode.js';
import type { DiskSettings, Expectation, ServerSettings } from '../results/types.js';

export function defaultExpectation(server: ServerSettings, disk: DiskSettings): Expectation {
  if (server.engine === 'rocksdb') return 'commits-kept';
  if (writesPageCopies(server.doublewrite)) return 'recovers';
  if (disk.atomicUnit >= server.pageSize) return 'never-torn';
  return server.doublewrite === 'detect-only' ? 'detects' : 'torn-reproduced';
}
