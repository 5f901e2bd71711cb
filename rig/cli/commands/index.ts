/**
 * Every `rig` subcommand, one module each, loaded only when asked for: `rig disk status` loads the
 * disk's modules and not the Docker client, the SQL driver or the campaign schema. A version asks
 * for none of them; help or an unknown name loads them all, in this order, the order help lists
 * them in.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

const COMMANDS: Record<string, () => Promise<{ register: Register }>> = {
  disk: () => import('./disk.js'),
  report: () => import('./report.js'),
  images: () => import('./images.js'),
  scan: () => import('./scan.js'),
  merge: () => import('./merge.js'),
  compare: () => import('./compare.js'),
  history: () => import('./history.js'),
  cleanup: () => import('./cleanup.js'),
  cycle: () => import('./cycle.js'),
  repro: () => import('./repro.js'),
  shrink: () => import('./shrink.js'),
  bundle: () => import('./bundle.js'),
  campaign: () => import('./campaign.js'),
  explore: () => import('./explore.js'),
  perf: () => import('./perf.js'),
  vm: () => import('./vm.js'),
};

export const COMMAND_NAMES = Object.keys(COMMANDS);

const VERSION_FLAGS = ['--version', '-V'];

/** Registers the command `wanted` names (the first argument), none for a version, or every
 * command when it names none. */
export async function registerCommands(program: Command, wanted?: string): Promise<void> {
  if (wanted !== undefined && VERSION_FLAGS.includes(wanted)) return;
  const names = wanted !== undefined && Object.hasOwn(COMMANDS, wanted) ? [wanted] : COMMAND_NAMES;
  for (const m of await Promise.all(names.map((name) => COMMANDS[name]!()))) m.register(program);
}
