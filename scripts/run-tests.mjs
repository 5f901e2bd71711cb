#!/usr/bin/env node
// Runs the tap suite and ends with one plain line "N passed, N failed" from tap's own totals.
//   --fast              only what needs no root, FUSE, server or Docker (*.test.ts, not *.int / *.docker)
//   --coverage-min N    fail when line coverage of the code the suite loaded is below N percent
//   other arguments     passed to tap (e.g. test files)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const minAt = args.indexOf('--coverage-min');
const coverageMin = minAt >= 0 ? Number(args[minAt + 1]) : null;
const rest = args.filter((a, i) => a !== '--fast' && (minAt < 0 || (i !== minAt && i !== minAt + 1)));

const tapArgs = ['--allow-incomplete-coverage', '--coverage-report=json-summary', '--coverage-report=text-summary'];
// Naming any --exclude replaces tap's defaults, so they are named again here.
tapArgs.push('--exclude=**/@(fixture|fixtures|dist|node_modules)/**');
if (fast) tapArgs.push('--exclude=**/*.int.test.ts', '--exclude=**/*.docker.test.ts');
// Integration files share loop devices, the CPU and (one of them) fills every free loop device
// on purpose: the full suite runs its files one at a time.
else tapArgs.push('--jobs=1');
tapArgs.push(...rest);

const child = spawn('node_modules/.bin/tap', tapArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-20000);
});
const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? (sig ? 1 : 0))));

const totals = [...tail.matchAll(/^# \{ (total: \d+.*) \}$/gm)].pop()?.[1] ?? '';
const count = (k) => Number(totals.match(new RegExp(`${k}: (\\d+)`))?.[1] ?? 0);
let failed = count('fail');
const passed = count('pass');
const skipped = count('skip');

if (coverageMin !== null) {
  try {
    const summary = JSON.parse(readFileSync('.tap/report/coverage-summary.json', 'utf8'));
    const pct = summary.total.lines.pct;
    console.log(`line coverage ${pct}% (minimum ${coverageMin}%)`);
    if (pct < coverageMin) failed += 1;
  } catch {
    console.log('no coverage summary was written');
  }
}
if (code !== 0 && failed === 0) failed = 1; // tap failed for a reason it did not count as an assertion
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);
