/**
 * A perf scenario's off / on ratios from its pairs in a campaign's results (pairs without figures
 * left out), and the never-torn scenario of the same setting: the safety half of the same claim.
 */
import type { CampaignResults, ScenarioSummary } from '../results/types.js';
import type { PerfPairRecord } from '../results/perf-pair-record.js';
import { ratioSpread, type RatioSpread } from './ratio-spread.js';

export interface PairRatios {
  measured: number; // pairs with figures
  failed: number; // pairs the rig could not measure
  writeQps: RatioSpread | null;
  tps: RatioSpread | null;
  p99Ms: RatioSpread | null;
}

export function pairRatios(pairs: readonly PerfPairRecord[]): PairRatios {
  const measured = pairs.filter((p) => p.on && p.off);
  const of = (key: 'writeQps' | 'tps' | 'p99Ms') =>
    measured.length ? ratioSpread(measured.map((p) => p.on![key]), measured.map((p) => p.off![key])) : null;
  return { measured: measured.length, failed: pairs.length - measured.length, writeQps: of('writeQps'), tps: of('tps'), p99Ms: of('p99Ms') };
}

/** The campaign's never-torn scenarios on the perf scenario's doublewrite-off setting: same profile, filesystem, atomic unit, page size, runtime and image. */
export function safetyScenarios(results: Pick<CampaignResults, 'scenarios'>, perf: ScenarioSummary): ScenarioSummary[] {
  const p = perf.settings;
  return results.scenarios.filter((s) => {
    const t = s.settings;
    return !t.perf && s.expectation === 'never-torn' && t.server.doublewrite === false && t.server.engine === p.server.engine &&
      t.server.pageSize === p.server.pageSize && t.disk.profile === p.disk.profile && t.disk.fs === p.disk.fs &&
      t.disk.atomicUnit === p.disk.atomicUnit && t.runtime === p.runtime && (t.image ?? null) === (p.image ?? null);
  });
}
