#!/usr/bin/env node
/** The `rig` command: a thin dispatcher over one module per command. */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { COMMAND_NAMES, registerCommands } from './commands/index.js';
import { usageLine } from './usage-line.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const program = new Command('rig')
  .description('Cuts power under a MySQL-family server and proves what its recovery restored.')
  .version(pkg.version)
  .configureOutput({ outputError: (str, write) => write(usageLine(str, COMMAND_NAMES.includes(process.argv[2] ?? '') ? process.argv[2] : undefined)) })
  .exitOverride((err) => {
    // commander's own usage errors are bad input: exit 2, one line
    process.exit(err.exitCode === 0 ? 0 : 2);
  });

await registerCommands(program, process.argv[2]);
await program.parseAsync(process.argv);
