/**
 * The CLI loads one command's module for `rig NAME ...`, all of them for help or a name it does not
 * know, and none for a version (rig/cli/commands/index.ts): each module must register exactly the
 * command it is filed under, or `rig NAME` would find nothing to run.
 */
import t from 'tap';
import { Command } from 'commander';
import { COMMAND_NAMES, registerCommands } from '../../../rig/cli/commands/index.js';
import { rigVersion } from '../../../rig/version.js';
import { ensureBuilt, rig } from '../../fixtures/rig-cli.js';

t.before(ensureBuilt);

t.test('rig NAME registers that command alone', async (t) => {
  for (const name of COMMAND_NAMES) {
    const program = new Command('rig');
    await registerCommands(program, name);
    t.same(program.commands.map((c) => c.name()), [name], name);
  }
});

t.test('no name, help or an unknown name: every command, in the order help lists them', async (t) => {
  for (const wanted of [undefined, '--help', 'nonesuch']) {
    const program = new Command('rig');
    await registerCommands(program, wanted);
    t.same(program.commands.map((c) => c.name()), COMMAND_NAMES, String(wanted));
  }
  t.same(COMMAND_NAMES, ['disk', 'report', 'images', 'scan', 'merge', 'compare', 'history', 'cleanup', 'cycle', 'repro', 'shrink', 'bundle', 'campaign', 'explore', 'perf', 'vm']);
});

t.test('a version: no command at all, and the version printed', async (t) => {
  for (const wanted of ['--version', '-V']) {
    const program = new Command('rig');
    await registerCommands(program, wanted);
    t.same(program.commands, [], wanted);
    const run = await rig([wanted]);
    t.equal(run.exitCode, 0, String(run.stderr));
    t.equal(run.stdout, rigVersion(), `rig ${wanted}`);
  }
});

t.test('a name that is a property of every object is not a command', async (t) => {
  const program = new Command('rig');
  await registerCommands(program, 'constructor');
  t.equal(program.commands.length, COMMAND_NAMES.length);
});
