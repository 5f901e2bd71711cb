import { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { register } from '../../../rig/cli/commands/report.js';
import { copyQuickCampaign } from '../../fixtures/report/load-fixture.js';

/** Runs `rig report ...args` in-process; returns what it printed and the exit code it set. */
async function runReport(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const program = new Command('rig').exitOverride();
  register(program);
  let out = '';
  let err = '';
  const write = process.stdout.write;
  const writeErr = process.stderr.write;
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof write;
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof writeErr;
  const before = process.exitCode;
  try {
    await program.parseAsync(['node', 'rig', 'report', ...args]);
    return { out, err, code: Number(process.exitCode ?? 0) };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    process.exitCode = before;
  }
}

t.test('rig report DIR writes DIR/index.html and prints its path', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { out, code } = await runReport([run.dir]);
  t.equal(code, 0);
  t.equal(out, `${join(run.dir, 'index.html')}\n`);
  t.match(await readFile(join(run.dir, 'index.html'), 'utf8'), /✓ PASS/);
});

t.test('--out FILE writes there', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const { out, code } = await runReport([run.dir, '--out', join(run.dir, 'cycles', 'report.html')]);
  t.equal(code, 0);
  t.equal(out, `${join(run.dir, 'cycles', 'report.html')}\n`);
});

t.test('a bad folder or an --out in a missing folder is one line and exit 2', async (t) => {
  const run = await copyQuickCampaign();
  t.teardown(run.cleanup);
  const missing = await runReport([join(run.dir, 'missing')]);
  t.equal(missing.code, 2);
  t.match(missing.err, /^rig: .*missing is not a folder: give the folder a campaign wrote \(it holds results\.json\)\n$/);
  const noResults = await runReport([join(run.dir, 'cycles')]);
  t.equal(noResults.code, 2);
  t.match(noResults.err, /results\.json not found/);
  const badOut = await runReport([run.dir, '--out', join(run.dir, 'no', 'such', 'r.html')]);
  t.equal(badOut.code, 2);
  t.match(badOut.err, /does not exist; give --out a file in an existing folder\n$/);
  t.equal(badOut.err.split('\n').length, 2, 'one line');
});
