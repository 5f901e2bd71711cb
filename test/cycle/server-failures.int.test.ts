/**
 * What the server does after it started is the server's finding: one real crash cycle (the real
 * mariadbd on the real power-fail disk), whatever its cut tore, then the crash state of its cut
 * with every pending write landed (what a durable cache keeps: nothing can tear, so the server
 * recovers) judged with the recovery server killed, crashed or frozen after it answered, or crashed
 * during its clean shutdown. The image is the same bytes each time, so the fault is the only
 * difference; each must contradict `recovers` with a verdict naming the failure, never pass and
 * never be a rig error.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCycle } from '../../rig/cycle/run-cycle.js';
import { landAll } from '../../faults/chosen-plan.js';
import type { CrashPlan } from '../../faults/crash-plan.js';
import { cutPlan } from '../../rig/cycle/aim-plan.js';
import { contradicts } from '../../rig/results/expectation.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import type { CycleRecord, RecoveryBounds, ScenarioSettings } from '../../rig/results/types.js';
import { FaultyRuntime, type Fault } from '../fixtures/faulty-runtime.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { rejudge } from '../fixtures/rejudge.js';
import { localScenario } from '../fixtures/local-scenario.js';

const work = mkdtempSync(join(tmpdir(), 'rig-server-failures-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const local = createLocalRuntime();

const settings: ScenarioSettings = localScenario('dw-on-4k', {
  server: { bufferPool: '32M', redoSize: '48M' },
  disk: { sizeBytes: 256 << 20 },
  load: { rows: 3000, maxSeconds: 90 },
  expect: 'recovers',
});

/**
 * The live cycle (any verdict: its cut is what matters), and its cut judged with every pending
 * write landed: the state every case judges again.
 */
let base: Promise<{ dir: string; plan: CrashPlan; record: CycleRecord }> | null = null;
function baseState(): Promise<{ dir: string; plan: CrashPlan; record: CycleRecord }> {
  base ??= (async () => {
    const { server, version } = await local.describe();
    const dir = join(work, 'live');
    const live = await runCycle({
      id: 'live', settings, cycle: 1, seed: 5, expectation: 'recovers', dir,
      cacheRoot: PREPARED_CACHE, runtime: local, serverVersion: `${server} ${version}`, repro: `rig repro ${dir}`,
    });
    t.comment(`live: ${live.verdict}, ${live.cut?.pending} writes pending at the cut; ${live.reason}`);
    if (!live.cut) throw new Error(`the live cycle never cut: ${live.reason}`);
    const plan = landAll(cutPlan(dir, settings.disk.atomicUnit));
    const { record } = await rejudge(dir, join(work, 'landed'), settings, local, { plan });
    return { dir, plan, record };
  })();
  return base;
}

async function cycle(name: string, fault: Fault, bounds: Partial<RecoveryBounds> = {}) {
  const out = join(work, name);
  const runtime = new FaultyRuntime(local, fault, (spec) => spec.datadir.startsWith(join(out, 'recover') + '/'));
  const started = Date.now();
  const { dir, plan } = await baseState();
  const { record, teardownProblems } = await rejudge(dir, out, settings, runtime, { plan, bounds });
  const elapsedMs = Date.now() - started;
  const report = runtime.reports;
  const r = record.recovery;
  t.comment(`${name}: ${record.verdict} in ${elapsedMs} ms; fault ${JSON.stringify(report)}; ` +
    `ready ${r?.readyMs} ms, ended in ${r?.endedIn}, exit ${JSON.stringify(r?.exit)}, timed out ${r?.timedOut}, shutdown ${r?.shutdown}; ${record.reason}`);
  t.same(teardownProblems, [], `${name}: torn down cleanly`);
  return { record, report, elapsedMs };
}

function isFinding(t: Test, record: CycleRecord): void {
  t.not(record.verdict, 'rig-error', `not a rig error: ${record.error ?? record.reason}`);
  t.ok(contradicts('recovers', record.verdict, record.tornPagesBefore.length), `${record.verdict} contradicts recovers`);
  t.notOk(record.expectationHeld, 'the expectation did not hold');
}

t.test('without a fault the recovery server ends with a clean shutdown, on the record', async (t) => {
  const { record } = await baseState();
  t.equal(record.tornPagesBefore.length, 0, 'every write landed: nothing is torn');
  t.equal(record.verdict, 'no-torn', record.reason);
  t.ok(record.ledger.checked && record.ledger.acked > 0, `the ${record.ledger.acked} commits the live load acknowledged were checked`);
  t.equal(record.ledger.missing, 0);
  t.equal(record.recovery?.shutdown, 'clean');
  t.same(record.recovery?.exit, { exitCode: 0, signal: null });
  t.equal(record.recovery?.stalled, undefined, 'a recovery that answers never stalled');
  t.ok((record.recovery?.readyMs ?? 0) > 0, 'the time to ready is recorded');
  t.match(readFileSync(join(work, 'landed', 'error.log'), 'utf8'), /Shutdown complete/, 'the saved log includes the end of the shutdown');
});

for (const signal of ['SIGKILL', 'SIGSEGV'] as const) {
  t.test(`a server that dies of ${signal} during the checks crashed`, async (t) => {
    // At once: the checks of this small dataset take less than 50 ms, and a signal after them
    // lands in the shutdown (the next test's case).
    const { record, report } = await cycle(`killed-${signal}`, { when: 'after-ready', signal, delayMs: 0 });
    t.ok(report[0]?.sentAtMs !== null && report[0]?.sentAtMs !== undefined, `the fault was sent (${JSON.stringify(report)})`);
    t.equal(record.verdict, 'crashed', record.reason);
    t.equal(record.recovery?.endedIn, 'checks');
    t.equal(record.recovery?.exit?.signal, signal, 'the signal is recorded');
    t.equal(record.recovery?.timedOut, null, 'no bound passed');
    isFinding(t, record);
  });
}

t.test('a server that stops answering after it answered hung, within the check bound', async (t) => {
  const { record, elapsedMs } = await cycle('frozen', { when: 'after-ready', signal: 'SIGSTOP', delayMs: 0 }, { checksMs: 3000 });
  t.equal(record.verdict, 'hung', record.reason);
  t.equal(record.recovery?.timedOut, 'checks');
  t.equal(record.recovery?.bounds.checksMs, 3000);
  t.ok(elapsedMs < 30_000, `recovery ended soon after the bound (${elapsedMs} ms with both scans)`);
  isFinding(t, record);
});

t.test('a recovery that does not answer within its bound hung', async (t) => {
  const { record, report } = await cycle('frozen-start', { when: 'before-ready', signal: 'SIGSTOP' }, { startMs: 3000 });
  t.ok(report[0]?.sentAtMs !== null && report[0]?.sentAtMs !== undefined, `the server was frozen while starting (${JSON.stringify(report)})`);
  t.equal(record.verdict, 'hung', record.reason);
  t.equal(record.recovery?.readyMs, null, 'it never answered');
  t.equal(record.recovery?.timedOut, 'start');
  t.notOk(record.serverStarted);
  isFinding(t, record);
});

t.test('a recovery that stalls before it answers hung at its stall window, not at its bound', async (t) => {
  // frozen while it starts: no CPU and no I/O from then on, as a server hung on an unreadable page
  const { record, report } = await cycle('stalled-start', { when: 'before-ready', signal: 'SIGSTOP' }, { startMs: 90_000, stallMs: 2000 });
  t.ok(report[0]?.sentAtMs !== null && report[0]?.sentAtMs !== undefined, `the server was frozen while starting (${JSON.stringify(report)})`);
  t.equal(record.verdict, 'hung', record.reason);
  t.equal(record.recovery?.timedOut, 'start');
  t.equal(record.recovery?.readyMs, null, 'it never answered');
  const stalled = record.recovery?.stalled;
  t.ok(stalled, `the stall is recorded: ${JSON.stringify(stalled)}`);
  t.ok(stalled!.forMs >= 2000 && stalled!.cpuMs <= 0.02 * stalled!.forMs, 'a whole window, at next to no CPU');
  t.ok(stalled!.afterMs + stalled!.forMs < 90_000, 'it ended at the stall, before the start bound');
  t.equal(record.recovery?.bounds.stallMs, 2000, 'the bound it was judged by is on the record');
  t.match(record.reason, /it stalled: for \d+(\.\d)? s it read and wrote nothing and its threads used \d+ ms of CPU, and was killed/);
  isFinding(t, record);
});

t.test('a server that crashes during its clean shutdown is a shutdown crash', async (t) => {
  const { record, report } = await cycle('shutdown-segv', { when: 'at-shutdown', signal: 'SIGSEGV', logLine: /Normal shutdown|Starting shutdown/ });
  t.ok(report[0]?.sentAtMs !== null && report[0]?.sentAtMs !== undefined, `the fault was sent during the shutdown (${JSON.stringify(report)})`);
  t.equal(record.verdict, 'shutdown-crash', record.reason);
  t.equal(record.recovery?.shutdown, 'failed');
  t.equal(record.recovery?.exit?.signal, 'SIGSEGV');
  isFinding(t, record);
});

t.test('nothing is left behind', async (t) => {
  t.notMatch((await execa('cat', ['/proc/self/mountinfo'])).stdout, /rig-server-failures-/, 'no mount remains');
  t.notMatch((await execa('losetup', ['-a'])).stdout, /rig-server-failures-/, 'no loop device remains');
  t.notMatch((await execa('ps', ['-eo', 'args'])).stdout, /rig-server-failures-/, 'no helper or server remains');
});
