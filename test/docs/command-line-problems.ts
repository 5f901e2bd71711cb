/**
 * What is wrong with a `rig` command line, judged by the CLI's own commander program
 * (rig/cli/program.ts) with nothing run: each subcommand and flag named must exist, with a value
 * among a flag's choices; where the values are real, the settings of `rig cycle`, `rig explore`
 * and `rig perf` are checked as the commands check them, and a campaign file named must exist
 * and load, with the scenarios --scenario names. Shared by the docs' test and the CI examples'.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, CommanderError } from 'commander';
import { loadCampaign } from '../../rig/campaign/load-campaign.js';
import { scenarioFromFlags } from '../../rig/cli/cycle-scenario.js';
import { perfPlan } from '../../rig/cli/perf-scenario.js';
import { isCommandGroup } from '../../rig/cli/command-group.js';
import { createProgram } from '../../rig/cli/program.js';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import { isPlaceholder, type DocCommand } from './doc-command-lines.js';

/** Thrown by the program's preAction hook: the line parsed, and its action is not run. */
class Parsed extends Error {
  constructor(readonly command: Command) {
    super('parsed');
  }
}

/** The program with every command's exit turned into a throw and its output dropped. */
async function quietProgram(): Promise<Command> {
  const program = await createProgram();
  const quiet = (c: Command): void => {
    c.exitOverride();
    c.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    c.commands.forEach(quiet);
  };
  quiet(program);
  program.hook('preAction', (_program, action) => {
    throw new Parsed(action);
  });
  return program;
}

/** commander's ends that are not errors, and those inline code may show (a command or a flag named alone). */
const FINE = new Set(['commander.helpDisplayed', 'commander.version']);
const FINE_INLINE = new Set(['commander.missingArgument', 'commander.missingMandatoryOptionValue', 'commander.optionMissingArgument', 'commander.help']);

/** The subcommands a line names, as far as the program knows them. */
export function commandPath(program: Command, args: string[]): string[] {
  const path: string[] = [];
  let at = program;
  for (const arg of args) {
    const next = at.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!next) break;
    path.push(arg);
    at = next;
  }
  return path;
}

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(/^error: /, '');

/** Whether the command a group's name alone names has an action of its own (`rig history`). */
export async function runsAlone(path: string[]): Promise<boolean> {
  const program = await quietProgram();
  return program.parseAsync(path, { from: 'user' }).then(
    () => false,
    (error: unknown) => error instanceof Parsed && !isCommandGroup(error.command),
  );
}

/** What is wrong with one command line, or null. */
export async function problemOf(cmd: DocCommand): Promise<string | null> {
  const program = await quietProgram();
  let action: Command;
  try {
    await program.parseAsync(cmd.args, { from: 'user' });
    return 'commander ran no action and raised nothing';
  } catch (error) {
    if (error instanceof Parsed && isCommandGroup(error.command)) return cmd.inline ? null : `rig ${error.command.name()} names a group of commands, not one of them`;
    if (error instanceof Parsed) action = error.command;
    else if (error instanceof CommanderError && (FINE.has(error.code) || (cmd.inline && FINE_INLINE.has(error.code)))) return null;
    else return message(error);
  }
  const opts = action.opts<Record<string, unknown>>();
  const real = (v: unknown) => v === undefined || typeof v === 'boolean' || typeof v === 'number' || (typeof v === 'string' && !isPlaceholder(v)) || (Array.isArray(v) && v.every(real));
  if (!Object.values(opts).every(real) || !action.args.every((a) => !isPlaceholder(a))) return null;
  const name = commandPath(program, cmd.args).join(' ');
  try {
    if (name === 'cycle') scenarioFromFlags(opts as Record<string, string | undefined>);
    if (name === 'explore') scenarioFromFlags(opts as Record<string, string | undefined>, 'explore');
    if (name === 'perf') perfPlan(opts);
    if (name === 'campaign') return await campaignProblem(action.args[0]!, opts.scenario as string[] | undefined);
  } catch (error) {
    return message(error);
  }
  return null;
}

export async function campaignProblem(file: string, scenarios: string[] | undefined): Promise<string | null> {
  if (!existsSync(join(PACKAGE_ROOT, file))) return `${file}: no such campaign file`;
  const campaign = await loadCampaign(join(PACKAGE_ROOT, file));
  const known = campaign.scenarios.map((s) => s.settings.name);
  const unknown = (scenarios ?? []).filter((s) => !known.includes(s));
  return unknown.length ? `--scenario: ${unknown.join(', ')} not in ${file}` : null;
}

export async function problemsIn(found: DocCommand[]): Promise<string[]> {
  const problems: string[] = [];
  for (const cmd of found) {
    const problem = await problemOf(cmd);
    if (problem) problems.push(`${cmd.file}:${cmd.line}: ${cmd.text}: ${problem}`);
  }
  return problems;
}
