/**
 * Docs that cannot rot: every `rig` command line in README.md and docs/ (test/docs/doc-command-lines.ts)
 * is parsed by the CLI's own commander program (rig/cli/program.ts) with nothing run: each
 * subcommand and flag it names must exist, with a value among a flag's choices. A line from a code
 * block must be complete (its arguments given; placeholders such as DIR or CYCLE_DIR stand for
 * them); inline code may name a command alone. Where the values are real, the settings of `rig
 * cycle`, `rig explore` and `rig perf` are checked as the commands check them, and a campaign file
 * a line names must exist and load with the rig's own loader, with the scenarios --scenario names.
 * `rig --help` and the help of every command the docs name then run for real, through the built
 * CLI. A bad line is reported as FILE:LINE, the line, and what is wrong with it.
 * Besides: every campaign file the docs name or show whole loads, every relative link reaches its
 * file and heading, and the README's table of commands has a row for every command, in the words
 * of its --help.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import type { Command } from 'commander';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { createProgram } from '../../rig/cli/program.js';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';
import { campaignProblem, commandPath, message, problemsIn, runsAlone } from './command-line-problems.js';
import { commandLines, docFiles, headingAnchors, isPlaceholder, linksIn, readDoc, yamlBlocks } from './doc-command-lines.js';

const docs = docFiles(PACKAGE_ROOT);
const found = docs.flatMap((file) => commandLines(file, readDoc(PACKAGE_ROOT, file)));

t.test('the docs show rig command lines, and each parses with the CLI', async (t) => {
  t.ok(docs.includes('README.md') && docs.some((f) => f.startsWith('docs/')), `read ${docs.length} pages`);
  t.ok(found.length >= 300, `${found.length} command lines found (${found.filter((c) => !c.inline).length} in code blocks)`);
  t.comment(`${found.length} rig command lines in ${new Set(found.map((c) => c.file)).size} of ${docs.length} pages`);
  t.strictSame(await problemsIn(found), [], 'every command line names commands, flags and values the CLI takes');
});

t.test('every campaign file the docs name exists and loads', async (t) => {
  const named = new Set(docs.flatMap((file) => [...readDoc(PACKAGE_ROOT, file).matchAll(/\bcampaigns\/[\w.-]+\.ya?ml\b/g)].map((m) => m[0])));
  t.ok(named.size >= 5, `${named.size} campaign files named`);
  for (const file of named) {
    const problem = await campaignProblem(file, undefined).catch(message);
    t.equal(problem, null, file);
  }
});

t.test('every campaign file the docs show whole loads', async (t) => {
  const blocks = docs.flatMap((file) => yamlBlocks(readDoc(PACKAGE_ROOT, file)).map((b) => ({ file, ...b })));
  const whole = blocks.filter((b) => /^name:/m.test(b.text) && /^scenarios:/m.test(b.text));
  t.ok(whole.length >= 1, `${whole.length} whole campaign files shown`);
  for (const b of whole) {
    const problem = (() => {
      try {
        parseCampaign(b.text, `${b.file}:${b.line}`);
        return null;
      } catch (error) {
        return message(error);
      }
    })();
    t.equal(problem, null, `${b.file}:${b.line}`);
  }
});

/** Each relative link of `files` (under `root`) whose file or heading is not there, as FILE:LINE: target: why. */
function linkProblems(root: string, files: string[]): { count: number; problems: string[] } {
  const problems: string[] = [];
  let count = 0;
  for (const file of files) {
    for (const link of linksIn(readDoc(root, file))) {
      count++;
      const [path, anchor] = link.target.split('#') as [string, string | undefined];
      const target = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
      const where = `${file}:${link.line}: ${link.target}`;
      if (!existsSync(join(root, target))) problems.push(`${where}: no such file`);
      else if (anchor !== undefined && !(statSync(join(root, target)).isFile() && headingAnchors(readDoc(root, target)).has(anchor))) {
        problems.push(`${where}: no heading #${anchor} in ${target}`);
      }
    }
  }
  return { count, problems };
}

t.test('every relative link in the docs reaches its file, and its heading', async (t) => {
  const { count, problems } = linkProblems(PACKAGE_ROOT, docs);
  t.ok(count >= 50, `${count} relative links`);
  t.strictSame(problems, [], 'every relative link resolves');
});

t.test('a link to no file or no heading is reported with its file and line', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rig-doc-links-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'a.md'), '# A page\n\n## The `rig cycle` flags: 16k\n');
  writeFileSync(join(root, 'README.md'), [
    '# Top', // 1
    'See [a](docs/a.md#the-rig-cycle-flags-16k) and [b](docs/b.md),', // 2: fine, then no file
    '[a heading](docs/a.md#no-such-heading), [here](#top), [there](#nowhere).', // 3: no heading, fine, no heading
    '`[not a link](nowhere.md)` and [a site](https://example.org/x).', // 4: neither counts
  ].join('\n'));
  const { count, problems } = linkProblems(root, ['README.md', 'docs/a.md']);
  t.equal(count, 5);
  t.strictSame(problems, [
    'README.md:2: docs/b.md: no such file',
    'README.md:3: docs/a.md#no-such-heading: no heading #no-such-heading in docs/a.md',
    'README.md:3: #nowhere: no heading #nowhere in README.md',
  ]);
});

t.test("the README's table of commands says what each command's --help says", async (t) => {
  const program = await createProgram();
  const rows = [...readDoc(PACKAGE_ROOT, 'README.md').matchAll(/^\| `((?:npx )?rig [^`]*)` \| (.*) \|$/gm)];
  const named = new Set<string>();
  for (const [, usage, text] of rows) {
    const path = commandPath(program, usage!.replace(/^(npx )?rig /, '').split(' '));
    let command: Command = program;
    for (const name of path) command = command.commands.find((c) => c.name() === name)!;
    named.add(path.join(' '));
    t.equal(text, command.description(), `rig ${path.join(' ')}`);
  }
  // every command that runs something: one without subcommands, or a group with an action of its own
  const paths = (c: Command, above: string[]): string[][] => [above, ...c.commands.flatMap((s) => paths(s, [...above, s.name()]))];
  const every: string[] = [];
  for (const path of program.commands.flatMap((c) => paths(c, [c.name()]))) {
    let command: Command = program;
    for (const name of path) command = command.commands.find((c) => c.name() === name)!;
    if (command.commands.length === 0 || (await runsAlone(path))) every.push(path.join(' '));
  }
  t.ok(every.length > 15, `${every.length} commands`);
  t.strictSame(every.filter((p) => !named.has(p)), [], 'every command has its row');
});

t.test('a bad command line is reported with its file and line', async (t) => {
  const page = [
    '# A page', // 1
    '```sh',
    'npx rig cycle --atomic 4k --out /tmp/c   # fine', // 3
    'npx rig cycel --out /tmp/c', // 4: no such command
    'npx rig cycle --atomik 4k', // 5: no such flag
    'npx rig campaign campaigns/quick.yml --backend zfs', // 6: not a choice
    'npx rig campaign campaigns/nonesuch.yml', // 7: no such file
    'npx rig campaign campaigns/findings.yml --scenario nonesuch', // 8: no such scenario
    'npx rig cycle --atomic 3k', // 9: the cycle's own check
    'npx rig repro', // 10: a block's line must be complete
    'rig disk down --dir D --seed 1; npx rig merge OUT DIR...', // 11: fine, placeholders
    '```',
    'Inline, `rig repro` names a command, `rig repro --recovr DIR` a flag it lacks.', // 13
    '```sh',
    'npx rig disk', // 15: a group, not a command
    '```',
    'Inline, `rig disk` names the group.', // 17: fine
  ].join('\n');
  const problems = await problemsIn(commandLines('docs/page.md', page));
  const where = problems.map((p) => p.split(': ')[0]);
  t.strictSame(where, [4, 5, 6, 7, 8, 9, 10, 13, 15].map((n) => `docs/page.md:${n}`), problems.join('\n'));
  t.match(problems[0], /cycel --out \/tmp\/c: unknown command 'cycel'/);
  t.match(problems[1], /unknown option '--atomik'/);
  t.match(problems[2], /'zfs' is invalid/);
  t.match(problems[3], /campaigns\/nonesuch\.yml: no such campaign file/);
  t.match(problems[4], /--scenario: nonesuch not in campaigns\/findings\.yml/);
  t.match(problems[5], /--atomic/);
  t.match(problems[6], /missing required argument/);
  t.match(problems[7], /unknown option '--recovr'/);
  t.match(problems[8], /rig disk names a group of commands, not one of them/);
});

t.test('command lines are read as a shell reads them, usage text as usage', async (t) => {
  const page = [
    '```sh',
    'P="npx rig perf --seconds 30"', // 2
    'for w in write-only read-write; do $P --workload $w --out /tmp/p-$w; done', // 3
    'npx rig campaign campaigns/quick.yml \\', // 4
    '  --out reports/q   # a comment', // 5
    'TMPDIR=/tmp rig cleanup && npx rig history || notify', // 6
    'npx rig vm run --memory 2G -- node dist/rig/cli/main.js disk selftest --seeds 2 2>&1 | tail', // 7
    'docker compose run --rm rig campaign campaigns/quick.yml', // 8
    'make test   # not the rig', // 9
    '```',
    'See `rig disk selftest [--backend fuse|dm]` and `rig merge OUT DIR...`; `rig/cli/main.ts` is a file.', // 11
  ].join('\n');
  const lines = commandLines('p.md', page).map((c) => `${c.line} ${c.inline ? 'inline' : 'block'}: ${c.args.join(' ')}`);
  t.strictSame(lines, [
    '3 block: perf --seconds 30 --workload $w --out /tmp/p-$w',
    '4 block: campaign campaigns/quick.yml --out reports/q',
    '6 block: cleanup',
    '6 block: history',
    '7 block: vm run --memory 2G -- node dist/rig/cli/main.js disk selftest --seeds 2',
    '7 block: disk selftest --seeds 2',
    '8 block: campaign campaigns/quick.yml',
    '11 inline: disk selftest --backend fuse',
    '11 inline: disk selftest --backend dm',
    '11 inline: merge OUT DIR...',
  ]);
  t.ok(isPlaceholder('CYCLE_DIR') && isPlaceholder('NAME.tar.gz') && isPlaceholder('I/N') && isPlaceholder('DIR/cycles/<state>'));
  t.notOk(isPlaceholder('/tmp/c') || isPlaceholder('campaigns/quick.yml') || isPlaceholder('4k'));
});

t.test('rig --help, rig --version and the help of every command the docs name run, exit 0', async (t) => {
  await ensureBuilt();
  const program = await createProgram();
  const paths = new Map<string, string[]>([['', []]]);
  for (const cmd of found) {
    const path = commandPath(program, cmd.args);
    paths.set(path.join(' '), path);
  }
  t.ok(paths.size > 10, `${paths.size} commands' help`);
  for (const path of paths.values()) {
    const run = await rig([...path, '--help']);
    t.equal(run.exitCode, 0, `rig ${[...path, '--help'].join(' ')} exits 0`);
    t.match(run.stdout, new RegExp(`^Usage: rig ${path.map((p) => `${p} `).join('')}`), `rig ${path.join(' ')} --help prints its usage`);
  }
  const version = await rig(['--version']);
  t.equal(version.exitCode, 0, 'rig --version exits 0');
  t.match(version.stdout, /^\d+\.\d+\.\d+/);
});
