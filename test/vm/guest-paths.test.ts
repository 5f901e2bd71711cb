import t from 'tap';
import { GUEST_TMPFS_DIRS, isInside, lostPathsProblem, packageShare, pathsLostInGuest, tmpfsFolderOf } from '../../rig/vm/guest-paths.js';

t.test('the folders the guest covers with its tmpfs', async (t) => {
  t.same(GUEST_TMPFS_DIRS, ['/tmp', '/run', '/var/tmp']);
});

t.test('inside a folder: the folder itself or below it, by whole names', async (t) => {
  for (const [path, folder, inside] of [
    ['/tmp/a', '/tmp', true],
    ['/tmp', '/tmp', true],
    ['/tmp/', '/tmp', true],
    ['/tmp/a/b', '/tmp/a/', true],
    ['/tmpx/a', '/tmp', false],
    ['/tmp/ab', '/tmp/a', false],
    ['/tmp/../home/x', '/tmp', false],
    ['//tmp/x', '/tmp', true],
    ['/anything', '/', true],
  ] as const) {
    t.equal(isInside(path, folder), inside, `${path} in ${folder}`);
  }
});

t.test('which tmpfs hides a path: the folder itself is there in the guest, empty', async (t) => {
  for (const [path, folder] of [
    ['/tmp/checkout', '/tmp'],
    ['/run/user/0/x', '/run'],
    ['/var/tmp/k', '/var/tmp'],
    ['/tmp', undefined],
    ['/tmp/', undefined],
    ['/var/tmpx', undefined],
    ['/var/lib/x', undefined],
    ['/work/main', undefined],
  ] as const) {
    t.equal(tmpfsFolderOf(path), folder, path);
  }
});

t.test('the package root is shared when a tmpfs would hide it and no other share holds it', async (t) => {
  for (const [root, sharedDir, cacheDir, shared] of [
    ['/work/main', '/work/main', '/var/cache/rig', undefined],
    ['/tmp/clone', '/work/elsewhere', '/var/cache/rig', '/tmp/clone'],
    ['/tmp/clone', '/tmp/clone/sub', '/var/cache/rig', '/tmp/clone'],
    ['/tmp/clone', '/tmp/clone', '/var/cache/rig', undefined],
    ['/tmp/clone', '/tmp', '/var/cache/rig', undefined],
    ['/var/tmp/clone', '/work', '/var/tmp', undefined],
    ['/run/clone', '/work', '/var/cache/rig', '/run/clone'],
  ] as const) {
    t.equal(packageShare(root, sharedDir, cacheDir), shared, `${root} with --dir ${sharedDir}, cache ${cacheDir}`);
  }
});

t.test('the absolute paths of a command the guest would not see', async (t) => {
  const shares = ['/tmp/shared', '/var/cache/rig', '/tmp/clone'];
  for (const [argv, lost] of [
    [['node', '/tmp/clone/dist/rig/cli/main.js', 'cycle', '--out', '/tmp/shared/k'], []],
    [['node', 'dist/rig/cli/main.js', 'cycle', '--out', 'k'], []],
    [['node', '/work/main/dist/rig/cli/main.js', '--out', '/var/lib/k'], []],
    [['ls', '/tmp', '/run/', '/var/tmp'], []],
    [['sh', '-c', 'D=/tmp/scratch; mkdir $D && ls /run/x'], []],
    [['node', '/tmp/other/main.js', 'cycle', '--out', '/tmp/k'], ['/tmp/other/main.js', '/tmp/k']],
    [['rig', 'cycle', '--out=/var/tmp/k'], ['/var/tmp/k']],
    [['rig', 'cycle', '--out=/work/k', '-o=/run/k'], ['/run/k']],
    [['cat', '/tmp/sharedx/f'], ['/tmp/sharedx/f']],
    [['cat', '/tmp/shared/../elsewhere/f'], ['/tmp/shared/../elsewhere/f']],
    [['/tmp/tool/bin/run'], ['/tmp/tool/bin/run']],
  ] as const) {
    t.same(pathsLostInGuest(argv, shares), lost, argv.join(' '));
  }
});

t.test('the refusal: one line naming the paths, why, and the fix', async (t) => {
  for (const [lost, line] of [
    [['/tmp/k'], '/tmp/k: not seen in the guest, which mounts its own empty tmpfs on /tmp; move it under --dir, or outside /tmp, /run and /var/tmp'],
    [['/tmp/a', '/run/b', '/tmp/c'], '/tmp/a, /run/b, /tmp/c: not seen in the guest, which mounts its own empty tmpfs on /tmp, /run; move them under --dir, or outside /tmp, /run and /var/tmp'],
  ] as const) {
    t.equal(lostPathsProblem(lost), line);
    t.notMatch(lostPathsProblem(lost), /\n/);
  }
});
