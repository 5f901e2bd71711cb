/**
 * `rig explore` through the built CLI on the real stack: bad input refused before anything is
 * created; SIGINT with two states judged at once (explore's lanes) leaves nothing behind and keeps the states judged so far
 * recorded, and --resume (with --lanes 1) explores that cycle again to the end; a reader of its
 * output that goes away (`| head`) interrupts it the same way; a state's repro rebuilds it from
 * the recording with its sha256, and runs its recovery again as the state's own went; SIGINT
 * while the recording is made removes it; the report shows where each state came from, in
 * Chromium.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { loadResults } from '../../rig/results/load-results.js';
import { chromium } from 'playwright-core';
import { sweepLeftovers } from '../../rig/cleanup/sweep-leftovers.js';
import { contextFromEnv } from '../../rig/context.js';
import { outcomeExitCode } from '../../rig/results/summarize.js';
import type { CampaignResults } from '../../rig/results/types.js';
import { ensureBuilt, leftoversUnder, pollUntil, rig, waitForFile } from '../fixtures/rig-cli.js';
import { isMounted } from '../../faults/system.js';
import { defaultLanes } from '../../rig/explore/run-explore.js';
import { mostLanes } from '../../rig/explore/lane-growth.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { BROKEN_PIPE_STATUS } from '../../rig/interrupts.js';
import { SNAPSHOT_FILE } from '../../rig/explore/record-load.js';

const base = mkdtempSync(join(tmpdir(), 'rig-explore-cli-'));
const env = { RIG_CACHE: PREPARED_CACHE };
const SETTINGS = ['--doublewrite', 'off', '--atomic', '4k', '--buffer-pool', '32M', '--redo-size', '48M', '--size', '256M', '--rows', '3000', '--trigger', 'at-time 3s', '--seed', '3'];
const readResults = async (dir: string): Promise<CampaignResults> => (await loadResults(dir)).results;

t.teardown(async () => {
  await sweepLeftovers({ context: contextFromEnv() });
  if ((await leftoversUnder(base)).length === 0) rmSync(base, { recursive: true, force: true });
});

t.before(ensureBuilt);

t.test('bad input exits 2 before anything is created', async (t) => {
  const cases: [string, string[], RegExp][] = [
    ['unknown pick', ['--pick', 'best'], /--pick: .*best/],
    ['no states', ['--states', '0'], /--states/],
    ['lanes not a number', ['--lanes', 'many'], /^rig: --lanes: 'many' is not a number of states to judge at once; use a whole number from 1 to 32$/],
    ['a lifecycle mix', ['--mix', 'write-only,churn'], /--mix: explore checks the write-only ledger at each barrier/],
  ];
  for (const [name, args, message] of cases) {
    const out = join(base, `bad-${name.replace(/\W+/g, '-')}`);
    const run = await rig(['explore', ...args, '--out', out], env);
    t.equal(run.exitCode, 2, `${name}: exit 2`);
    t.match(run.stderr, message, `${name}: says what was wrong (${run.stderr.trim()})`);
    t.equal(run.stderr.trim().split('\n').length, 1, `${name}: one line`);
    t.notOk(existsSync(out), `${name}: no results folder`);
  }
});

const out = join(base, 'explore');

/** The states whose disks are up (their filesystem mounted): the states in flight. */
function statesInFlight(): string[] {
  const cycles = join(out, 'cycles');
  if (!existsSync(cycles)) return [];
  return readdirSync(cycles).filter((id) => {
    try {
      const { mountPoint } = JSON.parse(readFileSync(join(cycles, id, 'recover', 'disk.json'), 'utf8')) as { mountPoint: string | null };
      return mountPoint !== null && isMounted(mountPoint);
    } catch {
      return false;
    }
  });
}

// six states: once the first is saved, five remain for the lanes, so two are in flight at once
const STATES = 6;
const LANES = defaultLanes();
const MOST = Math.min(mostLanes(), STATES);

t.test(`SIGINT with ${LANES} states in flight, then --resume`, async (t) => {
  const child = rig(['explore', ...SETTINGS, '--states', String(STATES), '--out', out], env);
  await waitForFile(join(out, 'cycles', 'explore-1-s1', 'cycle.json'), 300_000);
  const inFlight = await pollUntil(`${LANES} states never were in flight at once`, 120_000, () => (statesInFlight().length >= LANES ? statesInFlight() : null));
  child.kill('SIGINT');
  t.comment(`SIGINT with ${inFlight.join(' and ')} in flight`);
  const stopped = await child;
  t.equal(stopped.signal, 'SIGINT', 'the run ends by the re-raised signal');
  t.match(stopped.stdout, new RegExp(`^explore-1: recorded \\d+ writes in \\d+\\.\\d s, \\d+ barriers with writes pending; judging ${STATES} states, ${LANES} at once, up to ${MOST} while the cores have room$`, 'm'), 'says what the recording holds and how many states are judged at once');
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
  const partial = await readResults(out);
  t.equal(partial.outcome, 'running');
  t.ok(partial.cycles.length >= 1 && partial.cycles.every((c) => c.explore?.run === 'explore-1'), `the states judged before the signal are recorded (${partial.cycles.map((c) => c.id).join(', ')})`);

  // --lanes 1: the resumed exploration judges its states one at a time, as it says
  const resumed = await rig(['explore', ...SETTINGS, '--states', String(STATES), '--out', out, '--resume', '--lanes', '1'], env);
  t.match(resumed.stdout, new RegExp(`^explore-1: recorded \\d+ writes .*; judging ${STATES} states, 1 at once$`, 'm'), '--lanes 1: one at a time');
  const results = await readResults(out);
  t.equal(resumed.exitCode, outcomeExitCode(results.outcome), `exit code follows the outcome (${resumed.stderr.trim().split('\n').slice(-2).join(' | ')})`);
  t.match(resumed.stdout, new RegExp(`^\\[${STATES}/${STATES}\\] explore-1-s${STATES}: `, 'm'), 'the interrupted exploration ran again to its end');
  t.same(results.cycles.map((c) => c.id), Array.from({ length: STATES }, (_, i) => `explore-1-s${i + 1}`));
  for (const c of results.cycles) {
    t.not(c.verdict, 'rig-error', `${c.id}: judged (${c.reason.slice(0, 160)})`);
    t.ok(c.tornPagesBefore.length === 0 || c.expectationHeld, `${c.id}: ${c.tornPagesBefore.length} torn pages; a torn page holds the negative control, whatever the server did`);
  }
  t.same(results.scenarios[0]!.cyclesPlanned, STATES);
  t.same(await leftoversUnder(base), [], 'nothing left after the resumed run either');

  const state = results.cycles[2]!;
  const dir = join(out, 'cycles', state.id);
  t.equal(state.repro, `rig repro ${dir}`);
  const repro = await rig(['repro', dir], env);
  t.match(repro.stdout, `crash image rebuilt, sha256 of its 256 KiB blocks ${state.crashImageBlocksSha256} (matches the record)`, `repro rebuilds ${state.id} (${repro.stderr.trim()})`);
  // the state's folder copied while its repro is up: the copied record names the original's disk
  const copy = join(base, 'copied-state');
  mkdirSync(join(copy, 'repro'), { recursive: true });
  copyFileSync(join(dir, 'cycle.json'), join(copy, 'cycle.json'));
  copyFileSync(join(dir, 'repro', 'disk.json'), join(copy, 'repro', 'disk.json'));
  const reproUp = leftoversUnder(dir);
  const copyDown = await rig(['repro', '--down', copy], env);
  t.equal(copyDown.stdout.trim(), 'no repro disk was up', 'the copy has no repro of its own');
  t.same(leftoversUnder(dir), reproUp, "the original's repro disk is left up");
  const down = await rig(['repro', '--down', dir], env);
  t.match(down.stdout, /repro disk taken down/);
  t.same(await leftoversUnder(base), [], 'repro --down leaves nothing');

  // the recovery run again on the rebuilt image does what the state's own recovery did
  const recovered = await rig(['repro', '--recover', dir], env);
  t.equal(recovered.exitCode, 0, recovered.stderr.trim());
  if (state.recovery?.readyMs === null) {
    // the cause is shown, not only the generic lines a refusing server ends its log with
    t.match(recovered.stdout, /^the server refused to start again \(exit \d+\); its log's telling lines:$/m, `${state.id} never answered: ${state.reason}`);
    t.match(recovered.stdout, /^ *\d+: .*\[ERROR\] InnoDB: .*corrupt/m, 'the line naming the corrupt page or file');
  } else {
    t.match(recovered.stdout, /^the server started on the crash image; socket /m, `${state.id} answered in ${state.recovery?.readyMs} ms`);
  }
  t.same(await leftoversUnder(base), [], 'repro --recover takes its disk down');
  t.notOk(existsSync(join(dir, 'repro')), 'and removes its folder, the rebuilt image with it');
});

t.test('a reader that goes away (| head): interrupted like SIGINT, nothing left behind', async (t) => {
  const piped = join(base, 'piped');
  const child = rig(['explore', ...SETTINGS, '--states', String(STATES), '--out', piped], env);
  await new Promise<void>((resolve) => {
    let got = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      got += chunk.toString();
      if (/^\[1\/\d+\] /m.test(got)) {
        child.stdout!.destroy(); // the next line the rig writes fails with EPIPE
        resolve();
      }
    });
  });
  const ended = await child;
  t.equal(ended.exitCode, BROKEN_PIPE_STATUS, 'ends with the status of a process SIGPIPE ended');
  t.match(ended.stderr, /^rig: the reader of its output went away \(EPIPE\), cleaning up$/m, ended.stderr.slice(0, 400));
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
  const partial = await readResults(piped);
  t.equal(partial.outcome, 'running');
  t.ok(partial.cycles.length >= 1, `the states judged before are recorded (${partial.cycles.length})`);
});

t.test('SIGINT while the recording is made: the unfinished recording is removed', async (t) => {
  const early = join(base, 'interrupted-recording');
  const recordingDir = join(early, 'recordings', 'explore-1');
  const child = rig(['explore', ...SETTINGS, '--states', String(STATES), '--out', early], env);
  await waitForFile(join(recordingDir, SNAPSHOT_FILE), 300_000); // prepared; the load is next
  child.kill('SIGINT');
  const stopped = await child;
  // what the run said, so an exit other than the signal names its cause
  const said = `exit ${stopped.exitCode}; stderr: ${stopped.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  t.equal(stopped.signal, 'SIGINT', `the run ends by the re-raised signal (${said})`);
  t.notMatch(stopped.stdout, /recorded \d+ writes/, 'it never said the recording was made');
  t.same(await leftoversUnder(base), [], 'no mount, loop device, helper or server left');
  t.notOk(existsSync(recordingDir), `no recording is left for a state no one judged (${said})`);
  t.same((await readResults(early)).cycles, [], 'no state recorded');
});

t.test('the report says where each state came from', async (t) => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const url = pathToFileURL(join(out, 'index.html')).href;
  await page.goto(`${url}#cycle-explore-1-s3`); // the index sends the link on to the state's page
  await page.waitForURL(/\/index-cycles\/cycle-explore-1-s3\.html$/, { timeout: 10_000 });
  await page.waitForSelector('html[data-ready="1"]', { timeout: 10_000 });
  const state = page.locator('[id="cycle-explore-1-s3"]');
  t.equal(await state.count(), 1, 'the state has its block');
  const line = (await state.locator('p.explore').innerText()).trim();
  t.match(line, new RegExp(`^Explored state 3 of ${STATES} from the recording of explore-1 \\(seed 3\\): the crash (at flush \\d+|at the cut, after the last flush), \\d+ writes durable, one of \\d+ barriers with writes pending; picked targeted, score \\d+\\.$`), line);
  t.match(await state.locator('.parts').innerText(), /Disk counters \(recording start to barrier\)/i);
});
