#!/usr/bin/env node
/** The `rig` command: a thin dispatcher over one module per command. */
import { createProgram } from './program.js';
import { watchBrokenPipes } from '../interrupts.js';

watchBrokenPipes(); // `rig history | head`: a quiet end, not a stack

const program = await createProgram(process.argv[2]);
await program.parseAsync(process.argv);
