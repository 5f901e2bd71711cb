import t from 'tap';
import { VM_DEFAULTS, checkMemory, checkWhole } from '../../rig/vm/run-options.js';

t.test('memory: a size, in MiB for qemu', async (t) => {
  t.same(checkMemory(VM_DEFAULTS.memory), { ok: true, value: 1024 });
  t.same(checkMemory('2G'), { ok: true, value: 2048 });
  t.same(checkMemory('1536M'), { ok: true, value: 1536 });
  t.match(checkMemory('1024'), { ok: false, problem: /too small; use 256M or more, e.g. 2G/ });
  t.match(checkMemory('lots'), { ok: false, problem: /'lots' is not a size/ });
  t.match(checkMemory(`${512 * 1024 * 1024 + 1}`), { ok: false, problem: /whole number of MiB/ });
});

t.test('whole numbers for --timeout and --cpus', async (t) => {
  t.same(checkWhole('600', 3600, 'a number of seconds'), { ok: true, value: 600 });
  for (const bad of ['0', '-1', '1.5', '10s', '', '3601']) {
    t.match(checkWhole(bad, 3600, 'a number of seconds'), { ok: false, problem: /is not a number of seconds; use a whole number from 1 to 3600/ }, bad);
  }
});
