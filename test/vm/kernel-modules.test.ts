import t from 'tap';
import { moduleKey, moduleLoadOrder, readModuleDepends } from '../../rig/vm/kernel-modules.js';

/** A module's bytes as far as the reader cares: other strings, then its modinfo. */
const ko = (...modinfo: string[]) => Buffer.from(`\x7fELF\0junk\0${modinfo.join('\0')}\0more\0`, 'latin1');

t.test('module keys: file or name, - and _ alike', async (t) => {
  for (const [given, key] of [['kernel/drivers/md/dm-mod.ko', 'dm_mod'], ['dm-flakey', 'dm_flakey'], ['9pnet_virtio.ko.xz', '9pnet_virtio']] as const) {
    t.equal(moduleKey(given), key, given);
  }
});

t.test('depends= from the modinfo strings', async (t) => {
  t.same(readModuleDepends(ko('license=GPL', 'depends=9pnet,fscache,netfs', 'name=9p')), ['9pnet', 'fscache', 'netfs']);
  t.same(readModuleDepends(ko('depends=dm-mod')), ['dm_mod']);
  t.same(readModuleDepends(ko('depends=')), [], 'none');
  t.same(readModuleDepends(ko('license=GPL')), [], 'no depends string at all');
});

const DEPENDS: Record<string, string[]> = {
  virtio_ring: [], virtio: ['virtio_ring'], virtio_pci: ['virtio_ring', 'virtio'], netfs: [], fscache: ['netfs'],
  '9pnet': [], '9p': ['9pnet', 'fscache', 'netfs'], dm_mod: [], dm_flakey: ['dm_mod'], dm_log_writes: ['dm_mod'],
};
const dependsOf = (key: string) => DEPENDS[key] ?? null;

t.test('each module after its dependencies, each once, in a stable order', async (t) => {
  t.same(moduleLoadOrder(['virtio_pci', '9p', 'dm-flakey', 'dm-log-writes'], dependsOf), [
    'virtio_ring', 'virtio', 'virtio_pci', '9pnet', 'netfs', 'fscache', '9p', 'dm_mod', 'dm_flakey', 'dm_log_writes',
  ]);
});

t.test('a missing module names who needs it; a cycle is named', async (t) => {
  t.throws(() => moduleLoadOrder(['a'], (k) => (k === 'a' ? ['b'] : null)), /kernel module b is not in the kernel package \(needed by a\)/);
  t.throws(() => moduleLoadOrder(['a'], (k) => (k === 'a' ? ['b'] : ['a'])), /in a cycle: a -> b -> a/);
});
