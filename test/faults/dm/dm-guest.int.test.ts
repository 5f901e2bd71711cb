/**
 * The dm backend on a real kernel path: one boot of the guest (rig vm run), where device-mapper
 * is real, carries what `make test` checks of it. A short disk-model selftest (one seed of each
 * kind of run; `make test-dm` runs a hundred), `rig disk up/cut/down --backend dm` on the raw device
 * with page writes never flushed (no filesystem, whose journal commits every 5 s would flush
 * them while the CLI starts), a disk whose owner died (ext4) swept by `rig cleanup`, and a
 * `rig cycle --backend dm` interrupted by SIGINT once its server runs on the dm disk.
 * Each step leaves the guest's device-mapper table and loop devices as they were.
 */
// runs alone: the guest's emulated CPUs take both cores (beside another file it ran past ten minutes)
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SelftestResult } from '../../../faults/selftest/model-check.js';
import { RUN_KINDS } from '../../../faults/selftest/model-check.js';
import { ensureBuilt, RIG_MAIN, rig } from '../../fixtures/rig-cli.js';

// The guest's own bound is 1,300 s, not the suite's 600 s a file: it takes about 180 s on a quiet
// host, but emulation slows with the host's load (a fresh machine's run with other work on its two
// cores took the whole 600 s), and a run cut off there says nothing about the kernel path.
t.setTimeout(1_400_000);
const shared = mkdtempSync(join(tmpdir(), 'rig-dm-guest-'));
t.teardown(() => rmSync(shared, { recursive: true, force: true }));
t.before(async () => {
  await ensureBuilt();
  const setup = await rig(['vm', 'setup']);
  if (setup.exitCode !== 0) throw new Error(`rig vm setup failed: ${setup.stderr}`);
  // the interrupted cycle's prepared image, built on the host (the guest shares the cache) so that
  // the guest spends its time in the cycle, not in building it under emulation
  const warm = await rig(['cycle', '--out', join(shared, 'warm')]);
  if (!existsSync(join(shared, 'warm', 'cycle.json'))) throw new Error(`rig cycle on the host failed: ${warm.stderr}`);
});

const R = `node ${RIG_MAIN}`;
/** Every step writes what it saw into the shared folder; `set -e` would hide the later ones. */
const script = `
step() { echo "$1 $(( $(date +%s) - T0 )) s" >> steps.txt; T0=$(date +%s); }
T0=$(date +%s)
${R} disk selftest --backend dm --seeds ${RUN_KINDS.length} --plans 2 --jobs 2 --json > selftest.json 2> selftest.log; echo $? > selftest.rc
step selftest

D=/tmp/rig-dm-cli
${R} disk up --backend dm --dir $D --size 64M --fs none > up.out 2> up.err; echo $? > up.rc
DEV=$(cat up.out)
dd if=/dev/urandom of=$DEV bs=16k count=8 oflag=direct conv=fsync status=none
dd if=/dev/urandom of=$DEV bs=16k count=4 seek=2 oflag=direct status=none
${R} disk status --dir $D --json > status.json
${R} disk cut --dir $D > cut.out 2> cut.err; echo $? > cut.rc
${R} disk down --dir $D --seed 3 > down.out 2> down.err; echo $? > down.rc
cp $D/dm-cut.json dm-cut.json
dmsetup ls > after-cli.dm 2>&1; losetup -a > after-cli.loops
step cli

sleep 600 & OWNER=$!
${R} disk up --backend dm --dir /tmp/rig-dm-owned --size 64M --owner-pid $OWNER > /dev/null 2> owned.err
dmsetup ls > owned.dm 2>&1
kill $OWNER; wait $OWNER 2>/dev/null
${R} cleanup > cleanup.out 2> cleanup.err; echo $? > cleanup.rc
dmsetup ls > after-cleanup.dm 2>&1; losetup -a > after-cleanup.loops
step cleanup

O=/tmp/rig-dm-interrupted
( i=0; until pgrep -x mariadbd > /dev/null && dmsetup ls | grep -q -- -cut || [ $i -ge 2400 ]; do sleep 0.25; i=$((i+1)); done
  sleep 2; { dmsetup ls; pgrep -l -x mariadbd; } > before-interrupt.state 2>&1; pkill -INT -f "cycle --backend dm --out $O" ) &
${R} cycle --backend dm --out $O > interrupted.out 2> interrupted.err; echo $? > interrupted.rc
dmsetup ls > after-interrupted.dm 2>&1; losetup -a > after-interrupted.loops
grep -c " $O" /proc/mounts > after-interrupted.mounts; { pgrep -l -x mariadbd; pgrep -l -x pfdm-watch; } > after-interrupted.procs
step interrupted-cycle
true
`;

const read = (name: string) => readFileSync(join(shared, name), 'utf8').trim();

t.test('one guest boot', async (t) => {
  const started = Date.now();
  const run = await rig(['vm', 'run', '--memory', '2G', '--timeout', '1200', '--dir', shared, '--', 'sh', '-c', script], {}, { timeout: 1_300_000 });
  t.comment(`guest run: ${((Date.now() - started) / 1000).toFixed(1)} s (in the guest: ${existsSync(join(shared, 'steps.txt')) ? read('steps.txt').split('\n').join(', ') : 'no steps timed'})`);
  t.equal(run.exitCode, 0, `the script ran (stderr: ${run.stderr})`);

  t.test('the disk keeps its model on the kernel path', async (t) => {
    t.equal(read('selftest.rc'), '0', read('selftest.log'));
    const result = JSON.parse(read('selftest.json')) as SelftestResult;
    t.equal(result.backend, 'dm');
    t.same(result.problems, []);
    t.equal(result.seeds.length, RUN_KINDS.length, 'each kind of run once');
    t.equal(result.images, RUN_KINDS.length * 2);
    t.ok(result.seeds.every((s) => s.pending > 0 || s.cut === 'after-writes'), 'a program cut at its end left writes pending');
    // the block layer counts requests (a flush, a split write too): the cut comes at about N writes
    const afterWrites = result.seeds.filter((s) => s.cut === 'after-writes');
    t.ok(afterWrites.length > 0 && afterWrites.every((s) => s.issued >= RUN_KINDS[s.seed % RUN_KINDS.length]!.cutAfter! / 2), `after-writes cuts held near their count: ${afterWrites.map((s) => `${s.issued} of ${RUN_KINDS[s.seed % RUN_KINDS.length]!.cutAfter}`).join(', ')}`);
    t.equal(result.alignedPagesTorn[16384] ?? 0, 0, 'no aligned 16 KiB write tore at atomic 16k');
    t.ok((result.alignedPagesTorn[4096] ?? 0) > 0, 'aligned 16 KiB writes tore at atomic 4k');
  });

  t.test('rig disk up, cut, down', async (t) => {
    t.equal(read('up.rc'), '0', read('up.err'));
    t.match(read('up.out'), /^\/dev\/mapper\/pcr-[0-9a-f]{12}-cut$/, 'up prints the device (fs none)');
    t.match(read('up.err'), /^power-fail disk up \(dm\): none on \/dev\/mapper\/pcr-[0-9a-f]{12}-cut, atomic 4096 B, profile local \(volatile cache\), trigger manual;/);
    const status = JSON.parse(read('status.json')) as { cut: boolean; cache: string };
    t.equal(status.cut, false);
    t.equal(read('cut.rc'), '0', read('cut.err'));
    t.match(read('cut.out'), /^cut: \d+ writes pending/);
    t.equal(read('down.rc'), '0', read('down.err'));
    t.match(read('down.out'), /^[0-9a-f]{64}$/, 'down prints the crash image sha256');
    t.match(read('down.err'), /^crash image \/tmp\/rig-dm-cli\/crash\.img \(\d+ pending writes, \d+ torn\)/);
    const account = JSON.parse(read('dm-cut.json')) as { pending: number; pendingPageWrites: number };
    t.same([account.pending, account.pendingPageWrites], [4, 4], 'the four unflushed page writes, and only they, were pending');
    t.match(read('after-cli.dm'), /^No devices found$/, 'no dm device left');
    t.equal(read('after-cli.loops'), '', 'no loop device left');
  });

  t.test('a disk whose owner died: rig cleanup takes it down', async (t) => {
    t.match(read('owned.dm'), /pcr-[0-9a-f]{12}-cut/, 'it was up');
    t.equal(read('cleanup.rc'), '0', read('cleanup.err'));
    t.match(read('cleanup.out'), /unmounted \/tmp\/rig-dm-owned\/mnt/);
    t.match(read('cleanup.out'), /removed device-mapper device pcr-[0-9a-f]{12}-cut\nremoved device-mapper device pcr-[0-9a-f]{12}-log\n/);
    t.match(read('cleanup.out'), /detached \/dev\/loop\d+ \(a loop device of \/tmp\/rig-dm-owned\)/);
    t.match(read('after-cleanup.dm'), /^No devices found$/);
    t.equal(read('after-cleanup.loops'), '');
  });

  t.test('Ctrl-C in the middle of a dm cycle leaves nothing behind', async (t) => {
    t.equal(read('interrupted.rc'), '130', `the run ends by the re-raised SIGINT (${read('interrupted.err').split('\n').slice(-3).join(' | ')})`);
    t.match(read('interrupted.err'), /SIGINT received/);
    t.match(read('before-interrupt.state'), /pcr-[0-9a-f]{12}-cut/, "the cycle's dm disk was up when it came");
    t.match(read('before-interrupt.state'), /^\d+ mariadbd$/m, 'and its server running');
    t.match(read('after-interrupted.dm'), /^No devices found$/, 'no dm device left');
    t.equal(read('after-interrupted.loops'), '', 'no loop device left');
    t.equal(read('after-interrupted.mounts'), '0', 'nothing mounted');
    t.equal(read('after-interrupted.procs'), '', 'no server or watcher left');
  });
});
