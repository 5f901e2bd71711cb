#!/usr/bin/env node
/** The `rig` command: a thin dispatcher over one module per command. */
import { createProgram } from './program.js';

const program = await createProgram(process.argv[2]);
await program.parseAsync(process.argv);
