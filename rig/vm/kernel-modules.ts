/**
 * The kernel modules the guest loads, and the order to load them in: each wanted module after the
 * modules it depends on. A Debian kernel package ships no modules.dep (depmod writes it on
 * install), so the dependencies are read from each module's own `.modinfo` section.
 */

/** What the guest needs: virtio PCI, its console ports and 9p (the host's files), virtio disks,
 * loop devices, device-mapper with the flakey and log-writes targets, and ext4 (whose checksums
 * need crc32c, a dependency the module names nowhere). */
export const GUEST_MODULES = [
  'virtio_pci', 'virtio_console', '9pnet_virtio', '9p', 'virtio_blk', 'loop',
  'dm-mod', 'dm-flakey', 'dm-log-writes', 'crc32c_generic', 'ext4',
];

/** The name the kernel knows a module by: its file name without `.ko`, `-` and `_` alike. */
export function moduleKey(fileOrName: string): string {
  return fileOrName.replace(/^.*\//, '').replace(/\.ko(\.[a-z]+)?$/, '').replace(/-/g, '_');
}

/** The modules a `.ko` file says it depends on (`depends=a,b` in its modinfo strings). */
export function readModuleDepends(ko: Buffer): string[] {
  const at = ko.indexOf('\0depends=');
  if (at < 0) return [];
  const end = ko.indexOf(0, at + 1);
  const list = ko.subarray(at + '\0depends='.length, end < 0 ? ko.length : end).toString('latin1');
  return list.split(',').filter((name) => name !== '').map(moduleKey);
}

/**
 * Every module `wanted` needs, each after its dependencies, in a stable order. `dependsOf` gets a
 * module's key and returns its dependencies' keys, or null when there is no such module.
 */
export function moduleLoadOrder(wanted: string[], dependsOf: (key: string) => string[] | null): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string, path: string[]): void => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') throw new Error(`kernel modules depend on each other in a cycle: ${[...path, key].join(' -> ')}`);
    const deps = dependsOf(key);
    if (deps === null) throw new Error(`kernel module ${key} is not in the kernel package${path.length ? ` (needed by ${path.at(-1)})` : ''}`);
    state.set(key, 'visiting');
    for (const dep of deps) visit(dep, [...path, key]);
    state.set(key, 'done');
    order.push(key);
  };
  for (const name of wanted) visit(moduleKey(name), []);
  return order;
}
