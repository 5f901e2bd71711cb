/**
 * One measured run: the cycle's prepare stage (the setting's prepared image copied onto a fresh
 * power-fail disk, the server started on it), sysbench for the run's time, then everything taken
 * down. No cut: the disk only times and serves; the run's folder is removed after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rigFailure } from '../errors.js';
import { CleanupStack } from '../cycle/cleanup-stack.js';
import { prepare } from '../cycle/stages/prepare.js';
import type { ScenarioSettings } from '../results/types.js';
import type { ServerRuntime } from '../runtime/types.js';
import type { DiskEnvironment } from '../../faults/disk-environment.js';
import { runTimedSysbench } from './timed-sysbench.js';
import type { SysbenchSummary } from '../results/perf-pair-record.js';
import type { PerfWorkload } from './perf-workload.js';

export interface MeasureInput {
  settings: ScenarioSettings;
  runtime: ServerRuntime;
  serverVersion: string;
  cacheRoot: string;
  diskRoot: string; // short: the disk's sockets live under it
  diskEnvironment?: DiskEnvironment;
  seconds: number;
  seed: number;
  workload?: PerfWorkload; // write-only when absent
  signal?: AbortSignal;
}

export async function measureRun(input: MeasureInput): Promise<SysbenchSummary> {
  const { settings } = input;
  const cleanup = new CleanupStack();
  const dir = mkdtempSync(join(input.diskRoot, 'run-'));
  cleanup.push('run folder', async () => rmSync(dir, { recursive: true, force: true }));
  let summary: SysbenchSummary | null = null;
  let failure: unknown = null;
  try {
    const live = await prepare({ ...input, cutDir: join(dir, 'd') }, cleanup);
    const { tables, rows, connections } = settings.load;
    summary = await runTimedSysbench({ socketPath: live.server.socketPath, tables, rows, connections, seconds: input.seconds, seed: input.seed, workload: input.workload ?? 'write-only', ...(input.signal ? { signal: input.signal } : {}) });
  } catch (error) {
    failure = error;
  }
  const problems = await cleanup.releaseAll();
  if (failure) throw failure;
  if (problems.length) throw rigFailure(`taking a perf run down left: ${problems.join('; ')}`);
  return summary!;
}
