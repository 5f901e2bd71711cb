/**
 * What the kernel says a process is doing (readActivity), read from real processes: a child that
 * sleeps uses next to no CPU and makes no I/O, one that spins uses CPU, one that writes moves
 * the counters; and the device a path lives on is the one stat(1) names.
 */
import t from 'tap';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { activitySource, deviceStatOf, readActivity } from '../../rig/runtime/server-activity.js';

const here = process.cwd();

function child(script: string): ChildProcess {
  return owned(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }));
}

function owned(proc: ChildProcess): ChildProcess {
  t.teardown(() => void proc.kill('SIGKILL'));
  return proc;
}

t.test('the device of a path is the one stat(1) names; a path on no block device has none', async (t) => {
  const named = execFileSync('stat', ['-c', '%Hd:%Ld', here], { encoding: 'utf8' }).trim();
  t.equal(deviceStatOf(here), `/sys/dev/block/${named}/stat`);
  t.equal(deviceStatOf('/proc/self'), null, 'procfs: no block device');
  t.equal(deviceStatOf('/no/such/path'), null);
  t.equal(activitySource(null, here), null, 'no pid (a server whose pid is unknown): nothing to read');
});

t.test('a sleeping process: no CPU, its counters still; a spinning one: CPU', async (t) => {
  const source = (pid: number) => ({ pid, deviceStat: deviceStatOf(here)! });
  const sleeper = owned(spawn('sleep', ['60'], { stdio: 'ignore' }));
  const spinner = child('for (;;) {}');
  await sleep(300); // both past their start
  const s0 = readActivity(source(sleeper.pid!), 0)!;
  const p0 = readActivity(source(spinner.pid!), 0)!;
  await sleep(1500);
  const s1 = readActivity(source(sleeper.pid!), 1500)!;
  const p1 = readActivity(source(spinner.pid!), 1500)!;
  t.ok(s0 && s1 && p0 && p1, 'all four read');
  t.same(s1.io.slice(0, 4), s0.io.slice(0, 4), 'the sleeper made no read or write call');
  t.ok(s1.cpuMs - s0.cpuMs <= 30, `the sleeper used ${s1.cpuMs - s0.cpuMs} ms of CPU in 1.5 s`);
  // a tenth of a core at the least: on a machine busy with other tests it gets less than a whole one
  t.ok(p1.cpuMs - p0.cpuMs >= 150, `the spinner used ${p1.cpuMs - p0.cpuMs} ms in 1.5 s`);
  t.equal(s1.io.length, 8, 'read and write calls and bytes, and the disk requests done');
  t.ok(Number.isInteger(s1.inFlight) && s1.inFlight >= 0);
});

t.test('a process that writes moves its counters', async (t) => {
  // it writes when told to, and says when it is ready and when it is done: no timing to guess
  const writer = owned(spawn(process.execPath, ['-e', `
    const fs = require('node:fs');
    process.stdin.once('data', () => {
      const fd = fs.openSync('/dev/null', 'w');
      for (let i = 0; i < 50; i++) fs.writeSync(fd, 'x');
      process.stdout.write('done\\n');
    });
    process.stdout.write('ready\\n');`], { stdio: ['pipe', 'pipe', 'ignore'] }));
  const said = (word: string) => new Promise<void>((resolve) => {
    let out = '';
    const seen = (b: Buffer) => {
      out += b.toString();
      if (out.includes(word)) {
        writer.stdout!.off('data', seen);
        resolve();
      }
    };
    writer.stdout!.on('data', seen);
  });
  await said('ready');
  const source = { pid: writer.pid!, deviceStat: deviceStatOf(here)! };
  const before = readActivity(source, 0)!;
  const done = said('done');
  writer.stdin!.write('go\n');
  await done;
  const after = readActivity(source, 1)!;
  t.ok(after.io[1]! >= before.io[1]! + 50, `write calls ${before.io[1]} -> ${after.io[1]}`);
});

t.test('a process that is gone reads as nothing', async (t) => {
  const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => gone.on('exit', resolve));
  t.equal(readActivity({ pid: gone.pid!, deviceStat: deviceStatOf(here)! }, 0), null);
  t.equal(readActivity({ pid: process.pid, deviceStat: '/sys/dev/block/0:0/stat' }, 0), null, 'nor does a device that is not there');
});
