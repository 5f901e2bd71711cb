/**
 * Short commands run through the command runner as execa with `reject: false` runs them: exit code,
 * output without its final newline, a missing command, a timeout. The runner survives a SIGINT
 * (the rig's cleanup after a Ctrl-C still needs it), does not keep the rig alive, and is gone when
 * the rig is.
 */
import t from 'tap';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { commandRunnerPid, runCommand } from '../../faults/run-command.js';
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
