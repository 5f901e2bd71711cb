/**
 * `--load sysbench`: Debian's sysbench oltp_write_only against the server's socket, on the
 * dataset prepareDataset made (the same schema sysbench's prepare would). sysbench keeps no ledger
 * of acknowledged commits, so the result says the ledger check cannot run.
 */
import { execa } from 'execa';
import { badInput, rigFailure } from '../errors.js';
import { findExecutable } from '../runtime/find-server-binary.js';
import { DEFAULT_SCHEMA } from './dataset.js';
import { readSysbenchReport, sysbenchFailure } from './sysbench-report.js';
import type { LoadHandle, LoadOptions, LoadResult, ThroughputBucket } from './types.js';

export const SYSBENCH_NOTE = 'sysbench drove the load: it keeps no ledger of acknowledged commits, so lost commits were not checked';
const REPORT_MS = 1000;

/** sysbench takes a --rand-seed up to 2^31 - 1 and refuses the rest; campaign seeds go to 2^32 - 1. */
export function sysbenchSeed(seed: number): number {
  return seed % 0x7fffffff;
}

/** oltp_write_only on the server's socket, the dataset's tables and rows, one thread a connection. */
export function sysbenchWriteOnlyArgs(options: Pick<LoadOptions, 'socketPath' | 'schema' | 'tables' | 'rows' | 'connections'>): string[] {
  return [
    'oltp_write_only',
    '--db-driver=mysql',
    `--mysql-socket=${options.socketPath}`,
    '--mysql-user=root',
    '--mysql-password=',
    `--mysql-db=${options.schema ?? DEFAULT_SCHEMA}`,
    `--tables=${options.tables}`,
    `--table-size=${options.rows}`,
    `--threads=${options.connections}`,
  ];
}

export function sysbenchArgs(options: LoadOptions): string[] {
  return [
    ...sysbenchWriteOnlyArgs(options),
    '--time=0', // no time limit: runs until stopped or the server goes away
    '--events=0',
    `--report-interval=${REPORT_MS / 1000}`,
    `--rand-seed=${sysbenchSeed(options.seed ?? 1)}`,
    'run',
  ];
}

export function runSysbenchLoad(options: LoadOptions): LoadHandle {
  if (options.connections < 1) throw badInput('the load needs at least one connection');
  const sysbench = findExecutable(['sysbench']);
  if (!sysbench) throw rigFailure('sysbench was not found: install it (apt-get install sysbench)');
  const controller = new AbortController();
  const started = performance.now();
  const buckets: ThroughputBucket[] = [];
  const child = execa(sysbench, sysbenchArgs(options), {
    reject: false,
    all: true,
    cancelSignal: options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal,
    forceKillAfterDelay: 5000,
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      const bucket = readSysbenchReport(line, REPORT_MS);
      if (bucket) buckets.push(bucket);
    }
  });
  const result = child.then((run): LoadResult => {
    const stopped = run.isCanceled || !run.failed;
    const failure = stopped ? null : (sysbenchFailure(run.all ?? '') ?? run.shortMessage ?? 'sysbench failed');
    const lost = failure !== null && /2013|2006|Lost connection|gone away|Can't connect/i.test(failure);
    return {
      kind: 'sysbench',
      ledger: false,
      note: SYSBENCH_NOTE,
      acked: new Map(),
      ackedCount: buckets.reduce((sum, b) => sum + b.commits, 0),
      retried: 0,
      bucketMs: REPORT_MS,
      throughput: buckets,
      errors: failure ? [{ client: 0, atMs: Math.round(performance.now() - started), code: null, message: failure, connectionLost: lost }] : [],
      durationMs: Math.round(performance.now() - started),
      endedBy: stopped ? 'stopped' : lost ? 'connection-lost' : 'error',
    };
  });
  return {
    ackedSoFar: () => buckets.reduce((sum, b) => sum + b.commits, 0),
    stop: () => {
      controller.abort();
      return result;
    },
    result: () => result,
  };
}
