#!/usr/bin/env node
// Runs the tap suite and ends with one plain line "N passed, N failed" from tap's own totals.
// Missing totals, and (with --coverage-min) a missing coverage summary, each count as one failure.
// Coverage is of every source file under SOURCE_DIRS: one that no test loaded counts as 0%
// (one that declares only types, and so cannot be loaded, is not counted).
// tap runs the tests compiled (tsconfig.test.json: dist/test/**/*.test.js beside the compiled
// sources; a TypeScript loader in each of some 160 test processes cost about 2 s of CPU apiece).
// Files are named by their sources, test/**/*.test.ts, here and in what this prints; the
// compiled ones are rebuilt first when a .ts file is newer than what it compiles to.
//   --fast              only what needs no root, FUSE, server or Docker (*.test.ts, not *.int / *.docker)
//   (*.dm.test.ts only when named: they boot the guest at length, see make test-dm)
//   --coverage-min N    fail when line coverage of all source files is below N percent
//   --setup-times FILE  print the set-up steps' times that make wrote to FILE, then delete it
//   test/x.test.ts      only these files (dist/test/x.test.js names the same one)
//   other arguments     passed to tap (e.g. --timeout=3600)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeUnloadedCoverage } from './cover-unloaded.mjs';
import { listFailures } from './list-failures.mjs';
import { fileTimesIn, slowestLines } from './slowest-files.mjs';

// Child processes count too: tap's process tracker follows every node child a test spawns (it
// puts its NODE_OPTIONS back), and maps what runs from dist/ to the TypeScript through the build's
// source maps.
const SOURCE_DIRS = ['rig', 'faults', 'reports'];

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const minAt = args.indexOf('--coverage-min');
const coverageMin = minAt >= 0 ? Number(args[minAt + 1]) : null;
if (coverageMin !== null && !(coverageMin >= 0 && coverageMin <= 100)) {
  console.error(`--coverage-min wants a percentage from 0 to 100, not ${args[minAt + 1] ?? 'nothing'}`);
  process.exit(2);
}
const timesAt = args.indexOf('--setup-times');
const setupTimes = timesAt >= 0 ? args[timesAt + 1] : undefined;
const ownArgs = new Set([minAt, timesAt].filter((i) => i >= 0).flatMap((i) => [i, i + 1]));
const rest = args.filter((a, i) => a !== '--fast' && !ownArgs.has(i));

const coverage = !args.includes('--disable-coverage');
// This summary names the files tap saw loaded; the text summary follows once the others are added.
const tapArgs = ['--allow-incomplete-coverage', '--coverage-report=json-summary'];
// The tests' own modules (their fixtures too) are no sources: coverage is of the rig's.
tapArgs.push('--coverage-exclude=dist/test/**');
// Files run two at a time (tap starts a process for each, seconds a file before its first test;
// an integration file spends much of its time waiting on a server or the disk). A file runs alone
// when it says so with a line `// runs alone: why` (it takes every free loop device, asks a global
// `rig cleanup` for nothing else's, counts every container on the engine, or boots the guest,
// whose emulated CPUs take both cores). Those run after the others, in a second tap run: tap runs
// files in the order named, and a file run alone in the middle of them (tap's `serial`) idles one
// core while the file beside it finishes. The second run also names its files in a save list
// (tap's --save), which keeps the first run's coverage.
// The docker files of the first run share one engine: the one that answers, else the rig's own
// dockerd, started here and claimed by this process (so a test or a rig command that connects
// to it leaves it running), and stopped before the files that run alone, which start their own.
const named = rest.filter((a) => !a.startsWith('-')).map(sourceOf);
const options = rest.filter((a) => a.startsWith('-'));
// *.dm.test.ts boot the guest for many minutes (make test-dm): they run only when named.
const sources = named.length ? named : testSources('test').filter((f) => !/\.dm\.test\.ts$/.test(f) && !(fast && /\.(int|docker)\.test\.ts$/.test(f)));
const missing = sources.filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`no such test file: ${missing.join(', ')}; name files as test/**/*.test.ts`);
  process.exit(2);
}
const alone = fast ? [] : sources.filter(runsAlone);
const together = sources.filter((f) => !alone.includes(f));
const runs = [];
if (together.length) runs.push([...tapArgs, '--jobs=2', ...options, ...together.map(compiledOf)]);
if (alone.length) runs.push([...tapArgs, '--jobs=1', `--save=${saveList(alone.map(compiledOf))}`, ...options, ...alone.map(compiledOf)]);
const firstRunHasDocker = together.some(isDockerFile);

if (!compiled()) {
  console.log('the tests do not compile (tsc -p tsconfig.test.json): fix the errors above');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// A summary left by an earlier run must not stand in for this one's.
const SUMMARY = '.tap/report/coverage-summary.json';
rmSync(SUMMARY, { force: true });
// Nor may an earlier run's saved results name failures of this one.
const RESULTS = '.tap/test-results';
rmSync(RESULTS, { recursive: true, force: true });

const started = performance.now();
const files = []; // each file's time, from its line as it streams by: the tail keeps too few
let code = 0;
const totals = [];
for (const [i, args] of runs.entries()) {
  const engine = i === 0 && firstRunHasDocker ? await shareEngine() : null;
  const run = await runTap(args, files);
  await engine?.stop();
  code ||= run.code;
  totals.push(run.totals);
}
const tapMs = performance.now() - started;

const count = (k) => totals.reduce((sum, t) => sum + Number(t?.match(new RegExp(`${k}: (\\d+)`))?.[1] ?? 0), 0);
let failed = count('fail');
const passed = count('pass');
const skipped = count('skip');
const todo = count('todo'); // known open problems, each with its reason in the output above
if (totals.includes(undefined)) {
  console.log(`tap printed no totals line (exit ${code}): its results are unknown`);
  failed += 1;
}

const seen = coverage ? readSummary(SUMMARY) : null;
if (seen) {
  const loaded = new Set(Object.keys(seen).filter((k) => k !== 'total'));
  const { unloaded, typeOnly } = writeUnloadedCoverage({ root: process.cwd(), dirs: SOURCE_DIRS, loaded, out: '.tap/coverage/unloaded-sources.json' });
  console.log(`# ${typeOnly.length} source files declare only types and are not counted`);
  console.log(`# ${unloaded.length} source files no test loaded count as 0%${coverageMin !== null && unloaded.length ? ':' : ''}`);
  if (coverageMin !== null) for (const f of unloaded) console.log(`#   ${f.slice(process.cwd().length + 1)}`);
  rmSync(SUMMARY, { force: true });
  const report = spawn('node_modules/.bin/tap', ['report', 'json-summary', 'text-summary'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const reportCode = await exitOf(report);
  if (reportCode !== 0) {
    console.log(`tap report failed (exit ${reportCode})`);
    failed += 1;
  }
}

if (coverageMin !== null) {
  const pct = readSummary(SUMMARY)?.total.lines.pct;
  if (typeof pct !== 'number') { // istanbul writes "Unknown" when no line was counted
    console.log(`no coverage summary with a line total was written (${SUMMARY})`);
    failed += 1;
  } else {
    console.log(`line coverage ${pct}% (minimum ${coverageMin}%)`);
    if (pct < coverageMin) failed += 1;
  }
}
if (code !== 0 && failed === 0) failed = 1; // tap failed for a reason it did not count as an assertion
// Where the time went (make's set-up steps, then tap's files), for the reason the failures follow.
if (setupTimes) printSetupTimes(setupTimes);
for (const line of slowestLines(files, tapMs)) console.log(line);
// What failed, by name, just above the count: the end of a long log is what gets read.
const failures = listFailures(RESULTS).map((line) => line.replace(/^(# failed: )(\S+)/, (_, head, file) => head + sourceOf(file)));
for (const line of failures.slice(0, 30)) console.log(line);
if (failures.length > 30) console.log(`# ... and ${failures.length - 30} more failures above`);
if (failures.length === 0 && count('fail') > 0) console.log("# failed: no saved result names it; see 'not ok' above");
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${todo ? `, ${todo} todo` : ''}`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);

/**
 * One tap run, its output passed through; the files' times go into `files`.
 * @returns {Promise<{ code: number, totals: string | undefined }>} totals: tap's last totals line
 */
async function runTap(args, files) {
  const child = spawn('node_modules/.bin/tap', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let tail = '';
  let partLine = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const text = chunk.toString();
    tail = (tail + text).slice(-20000);
    const found = fileTimesIn(partLine + text);
    files.push(...found.files.map((f) => ({ ...f, file: sourceOf(f.file) })));
    partLine = found.rest;
  });
  const code = await exitOf(child);
  return { code, totals: [...tail.matchAll(/^# \{ (total: \d+.*) \}$/gm)].pop()?.[1] };
}

/** A tap save list naming these files (tap deletes it once they all pass). */
function saveList(paths) {
  const path = '.tap/alone-files';
  mkdirSync('.tap', { recursive: true });
  writeFileSync(path, paths.join('\n') + '\n');
  return path;
}

/** The test files under `dir` (each *.test.ts but the fixtures), by path from here, sorted. */
function testSources(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : testSources(path);
      return /\.test\.ts$/.test(e.name) ? [path] : [];
    })
    .sort();
}

/** test/x.test.ts for itself or for dist/test/x.test.js, the file tap runs. */
function sourceOf(path) {
  const m = /^(?:\.\/)?dist\/(test\/.+)\.js$/.exec(path);
  return m ? `${m[1]}.ts` : path.replace(/^\.\//, '');
}

function compiledOf(source) {
  return `dist/${source.replace(/\.ts$/, '.js')}`;
}

/**
 * Compiles the sources and the tests into dist/ (tsconfig.test.json) when a .ts file under the
 * folders it compiles is newer than its .js there, or has none; false when tsc finds errors.
 */
function compiled() {
  const dirs = ['rig', 'faults', 'reports', 'bench', 'images', 'test'];
  const stale = dirs.flatMap((d) => tsFiles(d)).find((ts) => {
    const js = compiledOf(ts);
    return !existsSync(js) || statSync(js).mtimeMs < statSync(ts).mtimeMs;
  });
  if (!stale) return true;
  console.log(`# compiling the tests (tsc -p tsconfig.test.json): ${stale} is newer than dist/`);
  return spawnSync('node_modules/.bin/tsc', ['-p', 'tsconfig.test.json'], { stdio: 'inherit' }).status === 0;
}

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A test file (its source) that says `// runs alone: why`. */
function runsAlone(source) {
  return /^\/\/ runs alone: /m.test(readFileSync(source, 'utf8'));
}

function isDockerFile(path) {
  return /\.docker\.test\.ts$/.test(path);
}

/**
 * The engine the first run's docker files share, or null when none answers and none can start
 * (each docker file then says so itself). It stops on Ctrl-C or a kill, as the tests would stop it.
 * @returns {Promise<{ stop(): Promise<void> } | null>}
 */
async function shareEngine() {
  let connectEngine, contextFromEnv;
  try {
    ({ connectEngine } = await import('../dist/rig/docker/engine.js'));
    ({ contextFromEnv } = await import('../dist/rig/context.js'));
  } catch (error) {
    console.log(`# no shared Docker engine: the rig is not built (${error.message.split('\n')[0]}); each docker file starts its own`);
    return null;
  }
  const { workDir, dockerHost } = contextFromEnv();
  let engine;
  try {
    engine = await connectEngine({ workDir, dockerHost, allowStart: process.getuid?.() === 0, log: (l) => console.log(`# ${l}`) });
  } catch (error) {
    console.log(`# no shared Docker engine: ${error.message}`);
    return null;
  }
  if (!engine.started) return null; // the system's, or one another live process runs and stops
  const onSignal = (signal) => void engine.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  console.log(`# the docker files share the rig's dockerd at ${engine.socketPath}`);
  return {
    stop: async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await engine.stop();
    },
  };
}

function exitOf(child) {
  return new Promise((done) => child.on('close', (c, sig) => done(c ?? (sig ? 1 : 0))));
}

/** The lines make wrote ("dist 9.8 s", "npm up to date") as one; then the file goes, so that no
 * later run shows them as its own. */
function printSetupTimes(path) {
  const steps = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
  rmSync(path, { force: true });
  if (steps.length) console.log(`# set-up: ${steps.join(', ')}`);
}

/** The coverage summary istanbul wrote (`total`, and each file by absolute path), or null. */
function readSummary(path) {
  try {
    const summary = JSON.parse(readFileSync(path, 'utf8'));
    return summary?.total?.lines ? summary : null;
  } catch {
    return null;
  }
}
