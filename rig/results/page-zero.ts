/** Pending writes on page 0 of a file-per-table tablespace (.ibd), the count the lifecycle loads are for. */
import type { CycleRecord } from './types.js';

export function ibdPageZeroWrites(record: Pick<CycleRecord, 'pageZeroWrites'>): number {
  return (record.pageZeroWrites ?? []).filter((p) => p.file.endsWith('.ibd')).reduce((sum, p) => sum + p.writes, 0);
}
