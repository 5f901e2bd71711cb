/**
 * The campaign's order of its records: the order an unsharded run writes them in, each shard keeps
 * and a merge restores. Scenario by scenario as the campaign lists them, then by cycle. An explore
 * cycle makes several records, its states, each numbered 1..N in `cycle` and naming the cycle that
 * recorded its load run in `explore.run` (`<scenario>-<cycle>`, plan-cycles.ts): they go by that
 * cycle, then by state.
 */
import { badInput } from '../errors.js';

/** Where an item goes: its scenario's rank, its campaign cycle, its state (0: not an explore state). */
export type OrderKey = readonly [scenario: number, cycle: number, state: number];

/** What the order reads of a cycle record or a perf pair. */
export interface Ordered {
  id: string;
  scenario: string;
  cycle: number;
  explore?: { run: string };
}

export class CampaignOrder {
  private readonly rank: Map<string, number>;

  constructor(scenarios: readonly string[]) {
    this.rank = new Map(scenarios.map((name, i) => [name, i]));
  }

  /** The item's key; null when its scenario is none of the campaign's. */
  key(item: Ordered): OrderKey | null {
    const rank = this.rank.get(item.scenario);
    if (rank === undefined) return null;
    if (!item.explore) return [rank, item.cycle, 0];
    const run = item.explore.run;
    const cycle = run.startsWith(`${item.scenario}-`) ? Number(run.slice(item.scenario.length + 1)) : NaN;
    if (!Number.isInteger(cycle)) {
      throw badInput(`cycle ${item.id}: its explore.run '${run}' names no cycle of scenario ${item.scenario}; the results file is damaged`);
    }
    return [rank, cycle, item.cycle];
  }
}

/** Negative when `a` comes first. */
export function compareKeys(a: OrderKey, b: OrderKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
