/**
 * The expectation a scenario has when it names none (docs/design.md, "The oracle: verdicts"): doublewrite on
 * recovers, on either cache mode. With a flush method that does not sync the doublewrite copies
 * before the home writes (O_DIRECT_NO_FSYNC on MariaDB 10.11), that claim holds only on a durable
 * cache, where a completed copy is durable; on a volatile cache the break is the written-up
 * finding o-direct-no-fsync, which the findings catalog names for volatile caches only, so a
 * durable cache's break is a plain failure. The claim stays the server's to keep: MariaDB 11.x
 * maps the same flush method to a doublewrite that syncs its copies (rig/runtime/server-args.ts).
 * Doublewrite off with an atomic unit that covers a page never tears; with a smaller unit it is
 * the negative control (writes in flight tear on a durable cache too) that must reproduce torn
 * pages, unless it is MySQL's
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
