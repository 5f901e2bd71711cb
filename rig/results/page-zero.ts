/**
 * Pending writes on page 0 of a file-per-table tablespace (.ibd), the count the lifecycle loads
 * are for: all of them, and those on the tables the lifecycle kinds made (churn_c1_t1.ibd,
 * alter_c1.ibd, parts_c1#P#p0.ibd, ptrunc_c1#P#p0.ibd, bulk_c1.ibd, bait_c1.ibd: rig/load/lifecycle/;
 * MySQL writes #p# for #P#).
 */
import type { CycleRecord } from './types.js';

const LIFECYCLE_FILE = /\/(churn|alter|parts|ptrunc|bulk|bait)_c\d+(_t\d+)?(#[Pp]#p\d+)?\.ibd$/;

type WithPageZero = Pick<CycleRecord, 'pageZeroWrites'>;

function count(record: WithPageZero, file: (name: string) => boolean): number {
  return (record.pageZeroWrites ?? []).filter((p) => file(p.file)).reduce((sum, p) => sum + p.writes, 0);
}

export function ibdPageZeroWrites(record: WithPageZero): number {
  return count(record, (f) => f.endsWith('.ibd'));
}

/** Whether a file is a table's tablespace that a lifecycle kind of the load made. */
export const isLifecycleFile = (file: string): boolean => LIFECYCLE_FILE.test(file);

/** Those on page 0 of a table a lifecycle kind made. */
export function lifecyclePageZeroWrites(record: WithPageZero): number {
  return count(record, (f) => LIFECYCLE_FILE.test(f));
}
