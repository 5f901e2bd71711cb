/**
 * Short commands run through the command runner as execa with `reject: false` runs them: exit code,
 * output without its final newline, a missing command, a timeout. The runner survives a SIGINT
 * (the rig's cleanup after a Ctrl-C still needs it), does not keep the rig alive, and is gone when
 * the rig is. Long-lived processes start from it: their output goes to their log, their exit is
 * reported, a detached one leads its own process group, one that keeps the rig alive does, and
 * their exit is still seen when the runner is gone; a start or command the runner dies before
 * answering says so.
 */
import t from 'tap';
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandRunnerPid, runCommand, startProcess } from '../../faults/run-command.js';
import { processAlive, waitFor } from '../../faults/system.js';

t.test('results as execa gives them', async (t) => {
  const ok = await runCommand('sh', ['-c', 'echo out; echo err >&2; exit 3']);
  t.same(ok, { exitCode: 3, stdout: 'out', stderr: 'err', timedOut: false });
  const missing = await runCommand('no-such-command-here', []);
  t.equal(missing.exitCode, undefined, 'a command that does not start has no exit code');
  t.match(missing.stderr, /no-such-command-here: spawn no-such-command-here ENOENT/);
  const slow = await runCommand('sleep', ['5'], { timeoutMs: 200 });
  t.ok(slow.timedOut && slow.signal === 'SIGTERM' && slow.exitCode === undefined, 'a command past its timeout is ended');
  const [a, b] = await Promise.all([runCommand('echo', ['a']), runCommand('echo', ['b'])]);
  t.same([a.stdout, b.stdout], ['a', 'b'], 'commands in flight at once each get their own answer');
});

t.test('the runner survives SIGINT', async (t) => {
  await runCommand('true', []);
  const pid = commandRunnerPid();
  t.ok(pid && processAlive(pid), `the runner runs (pid ${pid})`);
  process.kill(pid!, 'SIGINT');
  const after = await runCommand('echo', ['still here']);
  t.equal(after.stdout, 'still here');
  t.equal(commandRunnerPid(), pid, 'the same runner answered');
});

t.test('the rig ends while the runner idles, and the runner ends with it', async (t) => {
  const module = fileURLToPath(new URL('../../faults/run-command.js', import.meta.url));
  const script = `const m = await import(${JSON.stringify(module)}); await m.runCommand('true', []); console.log(m.commandRunnerPid());`;
  const run = await execa('node', ['--input-type=module', '-e', script], { timeout: 20_000 });
  const pid = Number(run.stdout.trim());
  t.ok(pid > 0, `the process ended on its own (its runner was ${pid})`);
  t.ok(await waitFor(() => !processAlive(pid), 5000), 'its runner is gone');
});

/** Field `n` (1-based, after the command's name) of /proc/PID/stat: 4 is the parent, 5 the process group. */
function statField(pid: number, n: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3]);
}

t.test('long-lived processes start from the runner', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'out.log');
  const done = await startProcess('sh', ['-c', 'echo started; echo to stderr >&2; exit 5'], { logPath: log });
  t.same(await done.exited, { exitCode: 5, signal: null }, 'its exit code is reported');
  t.equal(readFileSync(log, 'utf8'), 'started\nto stderr\n', 'its output and errors went to its log');
  await (await startProcess('echo', ['again'], { logPath: log, append: true })).exited;
  t.equal(readFileSync(log, 'utf8'), 'started\nto stderr\nagain\n', 'append adds to the log');
  await (await startProcess('echo', ['afresh'], { logPath: log })).exited;
  t.equal(readFileSync(log, 'utf8'), 'afresh\n', 'without append the log is written afresh');

  const sleeper = await startProcess('sleep', ['30'], { logPath: log, detached: true });
  t.equal(statField(sleeper.pid, 4), commandRunnerPid(), 'its parent is the runner, not the rig');
  t.equal(statField(sleeper.pid, 5), sleeper.pid, 'a detached one leads its own process group');
  process.kill(sleeper.pid, 'SIGTERM');
  t.same(await sleeper.exited, { exitCode: null, signal: 'SIGTERM' }, 'the signal that ended it is reported');

  await t.rejects(startProcess('no-such-command-here', [], { logPath: log }), /no-such-command-here could not be started: .*ENOENT/);
  await t.rejects(startProcess('true', [], { logPath: join(dir, 'no', 'such', 'dir', 'log') }), /ENOENT/, 'a log that cannot be opened is said');
});

t.test('a process keeps the rig alive only when asked to', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const module = fileURLToPath(new URL('../../faults/run-command.js', import.meta.url));
  const script = (keeps: boolean) =>
    `const m = await import(${JSON.stringify(module)}); ` +
    `const p = await m.startProcess('sleep', ['1'], { logPath: ${JSON.stringify(join(dir, 'log'))}, keepsRigAlive: ${keeps} }); ` +
    `console.log(p.pid); p.exited.then((e) => console.log('exited', e.exitCode));`;
  const kept = await execa('node', ['--input-type=module', '-e', script(true)], { timeout: 20_000 });
  t.match(kept.stdout, /^\d+\nexited 0$/, 'the rig waited for it and saw it end');
  const left = await execa('node', ['--input-type=module', '-e', script(false)], { timeout: 20_000 });
  const pid = Number(left.stdout.trim());
  t.notMatch(left.stdout, /exited/, 'the rig ended without waiting');
  t.ok(await waitFor(() => !processAlive(pid), 5000), 'and the process went on to its own end');
});

t.test("a process's end is seen after its runner is gone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const sleeper = await startProcess('sleep', ['30'], { logPath: join(dir, 'log') });
  const runner = commandRunnerPid()!;
  process.kill(runner, 'SIGKILL');
  t.ok(await waitFor(() => !processAlive(runner), 5000), 'the runner is gone');
  t.ok(processAlive(sleeper.pid), 'the process it started runs on');
  process.kill(sleeper.pid, 'SIGKILL');
  t.same(await sleeper.exited, { exitCode: null, signal: null }, 'its end is seen, how it ended is not known');
  t.equal((await runCommand('echo', ['next'])).stdout, 'next', 'the next command starts another runner');
  t.not(commandRunnerPid(), runner);
});

t.test('a start the runner never answers says why', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await runCommand('true', []); // a runner, up
  const runner = commandRunnerPid()!;
  process.kill(runner, 'SIGSTOP'); // it cannot answer the start sent now
  const start = startProcess('sleep', ['30'], { logPath: join(dir, 'log') });
  const command = runCommand('echo', ['never']);
  process.kill(runner, 'SIGKILL');
  await t.rejects(start, /^sleep could not be started: the command runner ended before it answered$/, 'the start says the runner ended');
  t.match(await command, { stdout: '', stderr: 'the command runner ended before it answered' }, 'and a command sent with it');
  t.ok(await waitFor(() => !processAlive(runner), 5000), 'the runner is gone');
});
