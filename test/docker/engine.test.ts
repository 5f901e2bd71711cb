import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectEngine, pingEngine } from '../../rig/docker/engine.js';
import { RigError } from '../../rig/errors.js';
import { ensureBuilt, rig } from '../fixtures/rig-cli.js';

t.before(ensureBuilt);
const root = await mkdtemp(join(tmpdir(), 'rig-engine-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const deadSocket = `unix://${join(root, 'nobody.sock')}`;

t.test('a socket that is not there does not answer, and no client is loaded to ask it', async (t) => {
  const clientLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/dockerode/'));
  t.equal(clientLoaded(), false, 'nothing before loaded the client');
  t.equal(await pingEngine(deadSocket), false);
  t.equal(await pingEngine(join(root, 'nobody.sock')), false, 'a bare path too');
  t.equal(clientLoaded(), false, 'the client was not loaded for a socket that is not there');
  const notListening = join(root, 'not-listening.sock');
  await writeFile(notListening, '');
  t.equal(await pingEngine(notListening), false, 'a file nothing listens on does not answer');
  t.equal(clientLoaded(), true, 'and the client was loaded to ask it');
});

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
