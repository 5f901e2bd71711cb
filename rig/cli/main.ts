#!/usr/bin/env node
/** The `rig` command: a thin dispatcher over one module per command. */
import { createProgram } from './program.js';
import { COMMAND_NAMES } from './commands/index.js';
import { watchBrokenPipes } from '../interrupts.js';

watchBrokenPipes(); // `rig history | head`: a quiet end, not a stack

// as a command group called alone, or asked for the help of a command it lacks: one line naming
// the problem, not the whole help
const [first, second] = process.argv.slice(2);
if (first === undefined) {
  process.stderr.write(`rig: give a command: ${COMMAND_NAMES.join(', ')}; see rig --help\n`);
  process.exit(2);
}
if (first === 'help' && second !== undefined && !COMMAND_NAMES.includes(second)) {
  process.stderr.write(`rig: unknown command '${second}'; see rig --help\n`);
  process.exit(2);
}
const program = await createProgram(process.argv[2], process.argv[3]);
await program.parseAsync(process.argv);
