/**
 * What a perf run's clients do: sysbench oltp_write_only (index update, non-index update, delete +
 * insert a transaction) or oltp_read_write (the same writes after ten point selects and four range
 * reads). Both run on the same dataset, so one prepared image serves either.
 */
export const PERF_WORKLOADS = ['write-only', 'read-write'] as const;
export type PerfWorkload = (typeof PERF_WORKLOADS)[number];

export type SysbenchTest = 'oltp_write_only' | 'oltp_read_write';

const TESTS: Record<PerfWorkload, SysbenchTest> = { 'write-only': 'oltp_write_only', 'read-write': 'oltp_read_write' };

export function sysbenchTest(workload: PerfWorkload): SysbenchTest {
  return TESTS[workload];
}

/** Whether a workload's runs have read queries worth a figure of their own. */
export function readsCounted(workload: PerfWorkload): boolean {
  return workload === 'read-write';
}
