/**
 * A bench's command line: `--help` prints its usage and exits; an unknown flag, a missing value or a
 * number that is not a whole one (positive, for a count) is one line naming it, with the usage, and
 * exit code 2, before anything is started (a bench run can take many minutes).
 */
import { parseArgs } from 'node:util';

export interface BenchArgs {
  values: Record<string, string | undefined>;
  positionals: string[];
}

/** `flags`: each flag's name (without --) and its value: a count (1 or more), a whole number (0 or more), or text. */
export function benchArgs(usage: string, flags: Record<string, 'count' | 'whole' | 'text'>, argv = process.argv.slice(2)): BenchArgs {
  const options = Object.fromEntries(Object.keys(flags).map((name) => [name, { type: 'string' as const }]));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const flag = /'(--?[^' ]+)/.exec(message)?.[1] ?? '';
    refuse(code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `unknown flag '${flag}'` : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? `${flag} needs a value` : message, usage);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const values = parsed.values as Record<string, string | undefined>;
  for (const [name, kind] of Object.entries(flags)) {
    const value = values[name];
    if (value === undefined || kind === 'text') continue;
    if (!(kind === 'count' ? /^[1-9]\d*$/ : /^\d+$/).test(value)) refuse(`--${name} takes a ${kind === 'count' ? 'positive ' : ''}whole number, not '${value}'`, usage);
  }
  return { values, positionals: parsed.positionals };
}

/** The one line a bad command line gets, and exit code 2. */
export function refuse(problem: string, usage: string): never {
  process.stderr.write(`bench: ${problem}; ${usage}\n`);
  process.exit(2);
}
