#!/usr/bin/env node
// Runs the tap suite and ends with one plain line "N passed, N failed" from tap's own totals.
// Missing totals, and (with --coverage-min) a missing coverage summary, each count as one failure.
//   --fast              only what needs no root, FUSE, server or Docker (*.test.ts, not *.int / *.docker)
//   --coverage-min N    fail when line coverage of the code the suite loaded is below N percent
//   other arguments     passed to tap (e.g. test files)
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const minAt = args.indexOf('--coverage-min');
const coverageMin = minAt >= 0 ? Number(args[minAt + 1]) : null;
if (coverageMin !== null && !(coverageMin >= 0 && coverageMin <= 100)) {
  console.error(`--coverage-min wants a percentage from 0 to 100, not ${args[minAt + 1] ?? 'nothing'}`);
  process.exit(2);
}
const rest = args.filter((a, i) => a !== '--fast' && (minAt < 0 || (i !== minAt && i !== minAt + 1)));

const tapArgs = ['--allow-incomplete-coverage', '--coverage-report=json-summary', '--coverage-report=text-summary'];
// Naming any --exclude replaces tap's defaults, so they are named again here.
tapArgs.push('--exclude=**/@(fixture|fixtures|dist|node_modules)/**');
if (fast) tapArgs.push('--exclude=**/*.int.test.ts', '--exclude=**/*.docker.test.ts');
// Integration files share loop devices, the CPU and (one of them) fills every free loop device
// on purpose: the full suite runs its files one at a time.
else tapArgs.push('--jobs=1');
tapArgs.push(...rest);

// A summary left by an earlier run must not stand in for this one's.
const SUMMARY = '.tap/report/coverage-summary.json';
rmSync(SUMMARY, { force: true });

const child = spawn('node_modules/.bin/tap', tapArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-20000);
});
const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? (sig ? 1 : 0))));

const totals = [...tail.matchAll(/^# \{ (total: \d+.*) \}$/gm)].pop()?.[1];
const count = (k) => Number(totals?.match(new RegExp(`${k}: (\\d+)`))?.[1] ?? 0);
let failed = count('fail');
const passed = count('pass');
const skipped = count('skip');
if (totals === undefined) {
  console.log(`tap printed no totals line (exit ${code}): its results are unknown`);
  failed += 1;
}

if (coverageMin !== null) {
  const pct = readLinePct(SUMMARY);
  if (pct === null) {
    console.log(`no coverage summary was written (${SUMMARY})`);
    failed += 1;
  } else {
    console.log(`line coverage ${pct}% (minimum ${coverageMin}%)`);
    if (pct < coverageMin) failed += 1;
  }
}
if (code !== 0 && failed === 0) failed = 1; // tap failed for a reason it did not count as an assertion
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);

/** The total line coverage in percent, or null when there is no readable summary. */
function readLinePct(path) {
  let summary;
  try {
    summary = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const pct = summary?.total?.lines?.pct;
  return typeof pct === 'number' ? pct : null; // istanbul writes "Unknown" when no line was counted
}
