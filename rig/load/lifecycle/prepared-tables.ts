/**
 * The lifecycle tables the prepared image holds (kinds with `prepared`): one per load client,
 * made with the dataset and shut down cleanly, so every byte of them is durable before the load.
 */
import type { Connection } from 'mysql2/promise';
import { lifecycleKinds, type LifecycleKindName } from '../load-mix.js';
import type { LoadMix } from '../../results/load-kinds.js';
import { LIFECYCLE_KINDS } from './kinds.js';

/** The kinds of the mix whose tables come from the prepared image. */
export function preparedKinds(mix: LoadMix | undefined): LifecycleKindName[] {
  return mix ? lifecycleKinds(mix).filter((k) => LIFECYCLE_KINDS[k].prepared) : [];
}

/** What the prepared image must hold for these tables (part of its cache key), or null for none. */
export function preparedTablesBasis(mix: LoadMix | undefined, clients: number): { kinds: LifecycleKindName[]; clients: number } | null {
  const kinds = preparedKinds(mix);
  return kinds.length ? { kinds, clients } : null;
}

export async function createPreparedTables(connection: Connection, mix: LoadMix | undefined, clients: number): Promise<void> {
  for (const kind of preparedKinds(mix)) {
    for (let client = 1; client <= clients; client++) {
      for (const table of LIFECYCLE_KINDS[kind].tables(client)) await connection.query(LIFECYCLE_KINDS[kind].prepared!(table).sql);
    }
  }
}
