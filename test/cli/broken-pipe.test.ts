// A reader that goes away (`rig campaign ... | head`): the next write fails with EPIPE. Outside a
// run the rig ends quietly with status 141 (as SIGPIPE would end it); inside one the run is
// interrupted, its finally blocks take down what it built, and then it ends so.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import t from 'tap';
import { PACKAGE_ROOT } from '../../rig/paths.js';
import { BROKEN_PIPE_STATUS } from '../../rig/interrupts.js';
import { ensureBuilt, plainEnv } from '../fixtures/rig-cli.js';

t.before(ensureBuilt);
const base = mkdtempSync(join(tmpdir(), 'rig-broken-pipe-'));
t.teardown(() => rmSync(base, { recursive: true, force: true }));
const INTERRUPTS = join(PACKAGE_ROOT, 'dist', 'rig', 'interrupts.js');

/** Runs `script`, reads its standard output up to the first line, then closes it. */
async function readOneLineThenClose(script: string) {
  const path = join(base, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(path, script);
  const child = execa(process.execPath, [path], { reject: false, env: plainEnv(), extendEnv: false, buffer: { stdout: false }, timeout: 60_000 });
  const first = await new Promise<string>((resolve) => {
    let got = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      got += chunk.toString();
      if (got.includes('\n')) {
        child.stdout!.destroy();
        resolve(got.split('\n')[0]!);
      }
    });
  });
  return { first, ended: await child };
}

t.test('outside a run: status 141, no stack', async (t) => {
  const { first, ended } = await readOneLineThenClose(`
import { watchBrokenPipes } from ${JSON.stringify(INTERRUPTS)};
watchBrokenPipes();
for (let i = 0; i < 100; i++) { process.stdout.write('line ' + i + '\\n'); await new Promise((r) => setTimeout(r, 20)); }
process.stderr.write('wrote every line\\n');
`);
  t.equal(first, 'line 0');
  t.equal(ended.exitCode, BROKEN_PIPE_STATUS, 'ends as SIGPIPE would end it');
  t.equal(ended.stderr, '', 'nothing on stderr: no stack, and it did not go on writing');
});

t.test('inside a run: interrupted, taken down, then status 141', async (t) => {
  const marker = join(base, 'taken-down');
  const { first, ended } = await readOneLineThenClose(`
import { writeFileSync } from 'node:fs';
import { runInterruptible } from ${JSON.stringify(INTERRUPTS)};
await runInterruptible(async (signal) => {
  try {
    for (let i = 0; i < 500 && !signal.aborted; i++) { process.stdout.write('state ' + i + '\\n'); await new Promise((r) => setTimeout(r, 20)); }
    if (signal.aborted) throw signal.reason;
  } finally {
    writeFileSync(${JSON.stringify(marker)}, signal.aborted ? 'aborted' : 'ran to its end');
  }
});
process.stderr.write('after the run\\n');
`);
  t.equal(first, 'state 0');
  t.equal(ended.exitCode, BROKEN_PIPE_STATUS);
  t.equal(ended.stderr, 'rig: the reader of its output went away (EPIPE), cleaning up', 'one line, then the run is taken down');
  t.ok(existsSync(marker), "the run's finally ran before the exit");
});
