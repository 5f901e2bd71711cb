/**
 * `rig explore`: the cycle's settings flags, then one recorded load run and --states crash states
 * judged from it, each like a cycle, into a results folder like a campaign's (results.json,
 * junit.xml, the HTML report; a state's repro rebuilds it from the recording). Exit codes as for
 * `rig campaign`.
 */
import type { Command } from 'commander';
import type { Campaign } from '../../campaign/types.js';
import { DEFAULT_EVIDENCE_MAX_BYTES } from '../../defaults.js';
import { EXPLORE_FLAGS, exploreScenarioFlags, flagOption, scenarioFromFlags } from '../cycle-scenario.js';
import { runAction } from '../run-action.js';
import { LANES_HELP, runLoadedCampaign } from './campaign.js';
import { DEFAULT_EVIDENCE_KEEP } from '../../campaign/evidence-policy.js';

const SEED_FLAG = { key: 'seeds', flag: '--seed <seed>', help: 'seed for the load, the picks and the plans of the states', shown: '1' };

async function explore(o: Record<string, string | undefined>): Promise<number> {
  const { scenario, seed } = scenarioFromFlags(o, 'explore');
  const campaign: Campaign = { name: 'explore', file: 'command line', seed, evidence: { keep: DEFAULT_EVIDENCE_KEEP, sample: 0, maxBytes: DEFAULT_EVIDENCE_MAX_BYTES }, scenarios: [scenario] };
  return runLoadedCampaign(campaign, 'command line', { out: o.out ?? 'reports/explore', ...(o.resume ? { resume: true } : {}), ...(o.lanes !== undefined ? { lanes: o.lanes } : {}) });
}

export function register(program: Command): void {
  const command = program
    .command('explore')
    .description('record one load run, then judge many crash states from it; results and the HTML report in DIR');
  for (const f of [...exploreScenarioFlags(), ...EXPLORE_FLAGS, SEED_FLAG]) command.addOption(flagOption(f));
  command
    .option('--out <dir>', 'results folder', 'reports/explore')
    .option('--resume', 'continue an interrupted exploration in --out')
    .option('--lanes <n>', LANES_HELP)
    .action(runAction(explore));
}
