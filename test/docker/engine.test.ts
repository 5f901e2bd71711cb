import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEngine } from '../../rig/docker/engine.js';
import { RigError } from '../../rig/errors.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';

t.before(ensureBuilt);
const root = await mkdtemp(join(tmpdir(), 'rig-engine-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const deadSocket = `unix://${join(root, 'nobody.sock')}`;

t.test('an engine that does not answer is a rig failure, one line, and nothing is started', async (t) => {
  const error = await connectEngine({ workDir: root, allowStart: true, dockerHost: deadSocket }).catch((e: unknown) => e);
  t.type(error, RigError);
  t.equal((error as RigError).exitCode, 3);
  t.equal((error as RigError).message, `the Docker engine at DOCKER_HOST=${deadSocket} does not answer: start it, or unset DOCKER_HOST`);
});

t.test('rig images build against a silent engine: exit 3, one line on stderr', async (t) => {
  const run = await rig(['images', 'build', '--offline', '--work-dir', root], { DOCKER_HOST: deadSocket });
  t.equal(run.exitCode, 3);
  t.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  t.match(run.stderr, /^rig: the Docker engine at DOCKER_HOST=.* does not answer/);
});

t.test('rig images build --image with an unknown name: exit 2, one line', async (t) => {
  const run = await rig(['images', 'build', '--image', 'postgres-16', '--work-dir', root], { DOCKER_HOST: deadSocket });
  t.equal(run.exitCode, 2);
  t.equal(run.stderr.trim(), 'rig: unknown image "postgres-16": pick one of mariadb-offline, mariadb-11.8, mysql-9.7, rig, mariadb-10.11, mariadb-11.4, mysql-8.0, mysql-8.4');
});

t.test('rig images build --offline --image with a bad value: exit 2, one line naming the offline images', async (t) => {
  const cases: [string, string][] = [
    ['mariadb-12.0', 'rig: unknown image "mariadb-12.0": pick one of mariadb-offline, mariadb-11.8, mysql-9.7, rig'],
    ['mysql-8.4', 'rig: image "mysql-8.4" needs a registry and cannot be built with --offline: pick one of mariadb-offline, mariadb-11.8, mysql-9.7, rig, or drop --offline'],
  ];
  for (const [name, expected] of cases) {
    const run = await rig(['images', 'build', '--offline', '--image', name, '--work-dir', root], { DOCKER_HOST: deadSocket });
    t.equal(run.exitCode, 2, name);
    t.equal(run.stderr.trim(), expected, name);
  }
});
