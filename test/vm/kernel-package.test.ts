import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKernelDeb, readKernelPackageName } from '../../rig/vm/kernel-package.js';

t.test("the kernel package linux-image-amd64 depends on", async (t) => {
  t.equal(readKernelPackageName('linux-image-amd64\n  Depends: linux-image-6.1.0-57-amd64\n'), 'linux-image-6.1.0-57-amd64');
  t.equal(readKernelPackageName('linux-image-amd64\n'), null);
  t.equal(readKernelPackageName('linux-image-amd64\n  Depends: linux-image-6.1.0-57-cloud-amd64x\n'), null);
});

t.test('the newest kernel package in the folder, by version', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rig-vm-kernel-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.equal(await findKernelDeb(dir), null, 'none yet');
  t.equal(await findKernelDeb(join(dir, 'missing')), null, 'no folder yet');
  for (const name of ['linux-image-6.1.0-9-amd64_6.1.27-1_amd64.deb', 'linux-image-6.1.0-57-amd64_6.1.192-3_amd64.deb', 'notes.txt', 'linux-image-6.1.0-60-rt-amd64_6.1.200-1_amd64.debx']) {
    writeFileSync(join(dir, name), '');
  }
  t.equal(await findKernelDeb(dir), join(dir, 'linux-image-6.1.0-57-amd64_6.1.192-3_amd64.deb'));
});
