/**
 * The builtin write load: N clients over mysql2, each with a ledger row, running the steps of the
 * load's mix (rig/load/load-mix.ts) until stopped or until every connection failed (at a cut the
 * server is killed under them).
 */
import { badInput } from '../errors.js';
import { createRng } from '../../faults/prng.js';
import { AckedCommits } from './acked-commits.js';
import { CommitTimeline } from './commit-timeline.js';
import { DEFAULT_SCHEMA } from './dataset.js';
import { AckedSteps } from './lifecycle/acked-steps.js';
import { LifecycleClient } from './lifecycle/lifecycle-client.js';
import { DEFAULT_MIX, lifecycleKinds } from './load-mix.js';
import { Throughput } from './throughput.js';
import type { LoadHandle, LoadOptions, LoadResult } from './types.js';
import { runWriteClient, type ClientOutcome } from './write-client.js';

function endedBy(outcomes: ClientOutcome[]): LoadResult['endedBy'] {
  const errors = outcomes.flatMap((o) => (o.error ? [o.error] : []));
  if (errors.some((e) => !e.connectionLost)) return 'error';
  return errors.length === outcomes.length ? 'connection-lost' : 'stopped';
}

export function runBuiltinLoad(options: LoadOptions): LoadHandle {
  if (options.connections < 1) throw badInput('the load needs at least one connection');
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const acked = new AckedCommits();
  const timeline = new CommitTimeline();
  const mix = options.mix ?? DEFAULT_MIX;
  const kinds = lifecycleKinds(mix);
  const steps = kinds.length ? new AckedSteps() : null;
  const throughput = new Throughput(250);
  const seed = options.seed ?? 1;
  const clients = Array.from({ length: options.connections }, (_, i) =>
    runWriteClient({
      client: i + 1,
      socketPath: options.socketPath,
      schema: options.schema ?? DEFAULT_SCHEMA,
      shape: { tables: options.tables, rows: options.rows },
      rng: createRng(seed * 1009 + i + 1),
      mix,
      schedule: createRng(seed * 2003 + i + 1),
      lifecycle: steps ? new LifecycleClient(i + 1, kinds, steps, createRng(seed * 3011 + i + 1)) : null,
      signal,
      acked,
      timeline,
      throughput,
    }),
  );
  const result = Promise.all(clients).then(
    (outcomes): LoadResult => ({
      kind: 'builtin',
      ledger: true,
      acked: acked.snapshot(),
      ackedCount: acked.count,
      timeline,
      ...(steps ? { lifecycle: steps.snapshot() } : {}),
      retried: outcomes.reduce((sum, o) => sum + o.retried, 0),
      bucketMs: throughput.bucketMs,
      throughput: throughput.buckets(),
      errors: outcomes.flatMap((o) => (o.error ? [o.error] : [])),
      durationMs: Math.round(throughput.elapsedMs()),
      endedBy: endedBy(outcomes),
    }),
  );
  return {
    ackedSoFar: () => acked.count + (steps?.count ?? 0),
    stop: () => {
      controller.abort();
      return result;
    },
    result: () => result,
  };
}
