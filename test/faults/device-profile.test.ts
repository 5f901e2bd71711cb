/**
 * Device profiles: every shipped one reads into the model it says, and every bad profile is one
 * line naming the file, the key and the fix.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceHelperArgs, latencyAt } from '../../faults/device-model.js';
import { parseDeviceProfile, readDeviceProfile, readDuration, shippedProfileNames } from '../../faults/device-profile.js';

t.test('the shipped profiles', async (t) => {
  t.same(shippedProfileNames(), ['essd', 'local', 'nvme', 'pmem']);
  const read = Object.fromEntries(shippedProfileNames().map((n) => {
    const p = readDeviceProfile(n);
    if (!p.ok) throw new Error(p.problem);
    return [n, p.value.device];
  }));
  t.same(read.local, { cache: 'volatile', writeLatency: [], flushLatency: [], iops: 0, bandwidthBytes: 0, queueDepth: 0 }, 'local: the machine as it is');
  for (const n of ['essd', 'nvme', 'pmem']) t.equal(read[n]!.cache, 'durable', `${n}: power-loss protected`);
  t.same([read.essd!.iops, read.essd!.bandwidthBytes, read.essd!.queueDepth], [50_000, 350 << 20, 32], 'essd: the PL1 limits');
  t.equal(latencyAt(read.essd!.writeLatency, 50), 200, 'essd: 0.2 ms at the median');
  t.equal(latencyAt(read.nvme!.writeLatency, 50), 21, 'nvme: 21 µs at the median');
});

t.test('latency between the points is interpolated as the helper does', async (t) => {
  const points = [{ percent: 0, us: 100 }, { percent: 50, us: 200 }, { percent: 100, us: 1200 }];
  t.equal(latencyAt(points, 25), 150);
  t.equal(latencyAt(points, 75), 700);
  t.equal(latencyAt([], 50), null, 'no latency, no figure');
  t.same(deviceHelperArgs({ cache: 'durable', writeLatency: points, flushLatency: [], iops: 10, bandwidthBytes: 0, queueDepth: 4 }, 7),
    ['--cache=durable', '--write-latency=0:100,50:200,100:1200', '--iops=10', '--queue-depth=4', '--latency-seed=7']);
});

t.test('durations', async (t) => {
  for (const [text, us] of [['180us', 180], ['1.5ms', 1500], ['2s', 2_000_000], [' 20 us ', 20]] as const) t.equal(readDuration(text), us, text);
  for (const bad of ['180', '1.5 minutes', 12, null, '-3ms']) t.equal(readDuration(bad), null, String(bad));
});

const rejected: [string, string][] = [
  ['', "p.yml: not a mapping of settings; write at least 'cache: volatile' or 'cache: durable'"],
  ['- cache: durable', "p.yml: not a mapping of settings; write at least 'cache: volatile' or 'cache: durable'"],
  ['cache: maybe', 'p.yml: cache: cache is volatile or durable; see faults/profiles/local.yml for the format'],
  ['cache: durable\nspeed: 3', 'p.yml: unknown key; the keys are cache, writeLatency, flushLatency, iops, bandwidth, queueDepth; see faults/profiles/local.yml for the format'],
  ['cache: durable\nwriteLatency: {p50: 1ms}', 'p.yml: writeLatency: a latency needs min and max (and any of p50, p90, p99, p99.9 between); see faults/profiles/local.yml for the format'],
  ['cache: durable\nwriteLatency: {min: 2ms, max: 1ms}', 'p.yml: writeLatency: latencies must not fall as the percentile rises; check the order of the values; see faults/profiles/local.yml for the format'],
  ['cache: durable\nwriteLatency: {min: 1ms, p95: 2ms, max: 3ms}', 'p.yml: writeLatency: unknown percentile; use min, p50, p90, p99, p99.9 or max; see faults/profiles/local.yml for the format'],
  ['cache: durable\nflushLatency: {min: 5, max: 1ms}', "p.yml: flushLatency.min: 5 is not a duration; write it like 180us or 1.5ms; see faults/profiles/local.yml for the format"],
  ['cache: durable\niops: 0', 'p.yml: iops: Too small: expected number to be >=1; see faults/profiles/local.yml for the format'],
  ['cache: durable\nbandwidth: fast', "p.yml: bandwidth: 'fast' is not a size a second; write it like 350M; see faults/profiles/local.yml for the format"],
  ['cache: durable\nqueueDepth: 2.5', 'p.yml: queueDepth: Invalid input: expected int, received number; see faults/profiles/local.yml for the format'],
  ['cache: [durable', 'p.yml:1:16: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the YAML syntax there'],
];

for (const [text, problem] of rejected) {
  t.test(`rejects ${JSON.stringify(text)}`, async (t) => {
    const r = parseDeviceProfile(text, 'p.yml');
    t.same(r, { ok: false, problem });
  });
}

t.test('a profile file by path, and names that are no profile', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-profile-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'slow-disk.yml');
  writeFileSync(file, 'cache: durable\nwriteLatency: {min: 1ms, max: 4ms}\nqueueDepth: 8\n');
  const p = readDeviceProfile(file);
  t.ok(p.ok);
  if (p.ok) t.same([p.value.name, p.value.device.cache, p.value.device.queueDepth], ['slow-disk', 'durable', 8]);
  t.same(readDeviceProfile('ssd'), { ok: false, problem: "'ssd' is not a shipped profile; use essd, local, nvme or pmem, or a file path (copy one from faults/profiles/)" });
  t.same(readDeviceProfile(3), { ok: false, problem: '3 is not a profile; name one (essd, local, nvme or pmem) or give a file path' });
  const missing = readDeviceProfile(join(dir, 'none.yml'));
  t.same(missing, { ok: false, problem: `${join(dir, 'none.yml')}: cannot read the profile file (ENOENT); check the path` });
});
