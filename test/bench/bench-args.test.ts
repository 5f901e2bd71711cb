/**
 * The benches' command lines (bench/bench-args.ts), through the benches themselves: a bad flag or
 * value is refused in one line with exit code 2 before anything starts, and --help prints the usage.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import t from 'tap';

const bench = (name: string) => fileURLToPath(new URL(`../../bench/${name}.js`, import.meta.url));
const run = (name: string, args: string[]) => execa('node', [bench(name), ...args], { reject: false, timeout: 30_000 });

t.test('explore: --help, and each kind of bad input refused before anything runs', async (t) => {
  const help = await run('explore', ['--help']);
  t.equal(help.exitCode, 0);
  t.match(help.stdout, /^usage: node dist\/bench\/explore\.js \[--cycles N\] \[--states N\]/);
  const cases: [string[], RegExp][] = [
    [['--bogus', '1'], /^bench: unknown flag '--bogus'; usage: /],
    [['--states'], /^bench: --states needs a value; usage: /],
    [['--states', '0'], /^bench: --states takes a positive whole number, not '0'; usage: /],
    [['--cycles', '1.5'], /^bench: --cycles takes a whole number, not '1\.5'; usage: /],
    [['a.yml', 'b.yml'], /^bench: give at most one campaign file \(\*\.yml\), not a\.yml b\.yml; usage: /],
    [['--pick', 'best'], /^bench: --pick: 'best' is not a pick; use one of every, sample, targeted; usage: /],
    [['--trigger', 'soon'], /^bench: --trigger: .*; usage: /],
    [['--scenario', 'nope', 'campaigns/explore.yml'], /^bench: --scenario: campaigns\/explore\.yml has no scenario 'nope'; use one of dw-on-atomic4k, .*; usage: /],
    [['campaigns/none.yml'], /^bench: .*campaigns\/none\.yml.*; usage: /],
  ];
  for (const [args, said] of cases) {
    const r = await run('explore', args);
    t.equal(r.exitCode, 2, `${args.join(' ')}: exit code 2`);
    t.match(r.stderr, said, `${args.join(' ')}: ${r.stderr}`);
    t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    t.equal(r.stdout, '', 'nothing started');
  }
});

t.test('disk and profile: a bad --seconds is refused, --help is the usage', async (t) => {
  for (const name of ['disk', 'profile']) {
    const bad = await run(name, ['--seconds', 'soon']);
    t.equal(bad.exitCode, 2, `${name}: exit code 2`);
    t.match(bad.stderr, /^bench: --seconds takes a positive whole number, not 'soon'; usage: node dist\/bench\//);
    const help = await run(name, ['--help']);
    t.equal(help.exitCode, 0);
    t.match(help.stdout, new RegExp(`^usage: node dist/bench/${name}\\.js \\[--seconds N\\]`));
  }
});
