/** The image catalog and `rig images list`'s lines, without an engine (a stub answers inspect). */
import t from 'tap';
import type Dockerode from 'dockerode';
import { selectImages } from '../../rig/docker/build-images.js';
import { debootstrapArgs } from '../../rig/docker/debian-base.js';
import { IMAGE_CATALOG, findImageSpec, imageNames, requireImageSpec } from '../../rig/docker/image-catalog.js';
import { formatImageList, listImages } from '../../rig/docker/list-images.js';
import { RigError } from '../../rig/errors.js';

t.test('MariaDB 11.8 is an offline image from trixie, beside 10.11 from bookworm', async (t) => {
  t.same(requireImageSpec('mariadb-11.8', true), { name: 'mariadb-11.8', tag: 'powercut-rig/mariadb-offline:11.8', offline: true, suite: 'trixie' });
  t.same(findImageSpec('powercut-rig/mariadb-offline:10.11'), { name: 'mariadb-offline', tag: 'powercut-rig/mariadb-offline:10.11', offline: true, suite: 'bookworm' });
  t.same(imageNames(true), ['mariadb-offline', 'mariadb-11.8', 'mysql-9.7', 'rig']);
  t.same(selectImages(undefined, true).map((s) => s.name), ['mariadb-offline', 'mariadb-11.8', 'mysql-9.7'], '--offline alone: every offline server image');
  t.same(selectImages(['mariadb-11.8'], true).map((s) => s.tag), ['powercut-rig/mariadb-offline:11.8']);
  t.same(selectImages(['mariadb-11.8'], false).map((s) => s.tag), ['powercut-rig/mariadb-offline:11.8'], 'an offline image needs no --offline');
  t.equal(new Set(IMAGE_CATALOG.map((s) => s.name)).size, IMAGE_CATALOG.length, 'names are unique');
});

t.test('MySQL 9.7 is an offline image from sid, a MySQL flavor by its tag', async (t) => {
  t.same(requireImageSpec('mysql-9.7', true), { name: 'mysql-9.7', tag: 'powercut-rig/mysql-offline:9.7', offline: true, suite: 'sid' });
  t.equal(findImageSpec('powercut-rig/mysql-offline:9.7')?.name, 'mysql-9.7');
  t.same(debootstrapArgs('sid', '/r', 'http://m/debian').slice(-3), ['sid', '/r', 'http://m/debian']);
});

t.test("the rig's own image is built offline from trixie, from the project's top level, only when named", async (t) => {
  t.same(requireImageSpec('rig', true), { name: 'rig', tag: 'powercut-rig/rig:latest', offline: true, suite: 'trixie', context: 'project' });
  t.same(selectImages(['rig'], true).map((s) => s.tag), ['powercut-rig/rig:latest']);
  t.notOk(selectImages(undefined, false).some((s) => s.name === 'rig'), 'nor with the registry images');
});

t.test('a bad --image is bad input naming the valid values', async (t) => {
  const error = t.throws(() => selectImages(['mysql-8.4'], true)) as RigError;
  t.equal(error.exitCode, 2);
  t.match(error.message, /^image "mysql-8\.4" needs a registry .*: pick one of mariadb-offline, mariadb-11\.8, mysql-9\.7, rig, or drop --offline$/);
  t.match((t.throws(() => requireImageSpec('mariadb-99')) as RigError).message, /^unknown image "mariadb-99": pick one of mariadb-offline, mariadb-11\.8, mysql-9\.7, rig, mariadb-10\.11/);
});

t.test('debootstrap always checks the Release signature', async (t) => {
  const args = debootstrapArgs('trixie', '/r', 'http://mirror.example/debian');
  t.same(args, ['--variant=minbase', '--force-check-gpg', '--keyring=/usr/share/keyrings/debian-archive-keyring.gpg', 'trixie', '/r', 'http://mirror.example/debian']);
});

t.test('images list: every catalog image and each debootstrap base, built or not', async (t) => {
  const built: Record<string, { Size: number; Created: string }> = {
    'powercut-rig/mariadb-offline:11.8': { Size: 652_000_000, Created: '2026-11-30T13:24:01.5Z' },
    'powercut-rig/debian-base:trixie': { Size: 177_000_000, Created: '2026-11-30T13:23:10.1Z' },
  };
  // stands in for the engine: the fast suite runs without Docker (the docker suite lists for real)
  const docker = {
    getImage: (tag: string) => ({ inspect: async () => built[tag] ?? Promise.reject(Object.assign(new Error('no such image'), { statusCode: 404 })) }),
  } as unknown as Dockerode;
  const listed = await listImages(docker);
  t.same(listed.map((i) => i.tag), [...IMAGE_CATALOG.map((s) => s.tag), 'powercut-rig/debian-base:bookworm', 'powercut-rig/debian-base:trixie', 'powercut-rig/debian-base:sid']);
  const lines = formatImageList(listed);
  t.match(lines.find((l) => l.startsWith('mariadb-11.8')), /^mariadb-11\.8 +powercut-rig\/mariadb-offline:11\.8 +offline \(trixie\) +built, 652 MB, 2026-11-30 13:24:01$/);
  t.match(lines.find((l) => l.startsWith('mariadb-offline')), /offline \(bookworm\) +not built$/);
  t.match(lines.find((l) => l.startsWith('mysql-8.4')), /registry +not built$/);
  t.match(lines.find((l) => l.includes('debian-base:trixie')), /^base +powercut-rig\/debian-base:trixie +debootstrap +built, 177 MB/);
  t.match(lines.find((l) => l.startsWith('mysql-9.7')), /^mysql-9\.7 +powercut-rig\/mysql-offline:9\.7 +offline \(sid\) +not built$/);
});
