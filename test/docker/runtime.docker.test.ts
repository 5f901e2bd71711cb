import t from 'tap';
import { chmod, mkdtemp, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import { RigError } from '../../rig/errors.js';
import { connectToServer, closeQuietly } from '../../rig/runtime/connect.js';
import { createDockerRuntime, sweepContainers } from '../../rig/runtime/docker.js';
import type { ServerSettings } from '../../rig/results/types.js';
import type { ServerSpec } from '../../rig/runtime/types.js';
import { connectEngine, pingEngine } from '../../rig/docker/engine.js';
import { IMAGE_CATALOG } from '../../rig/docker/image-catalog.js';
import { chooseDefaultImage, flavorOfImage } from '../../rig/runtime/default-image.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';

const runId = `test-${process.pid}`;
const image = 'powercut-rig/mariadb-offline:10.11';
const settings: ServerSettings = { engine: 'innodb', doublewrite: true, flushMethod: 'O_DIRECT', pageSize: 16384, bufferPool: '32M', redoSize: '32M' };

async function tempSpec(): Promise<ServerSpec> {
  const root = await mkdtemp(join(tmpdir(), 'rig-docker-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const spec = { datadir: join(root, 'data'), runDir: join(root, 'run'), settings };
  await import('node:fs/promises').then((fs) => Promise.all([fs.mkdir(spec.datadir), fs.mkdir(spec.runDir)]));
  return spec;
}

async function query(socketPath: string, sql: string): Promise<unknown[]> {
  const connection = await connectToServer({ socketPath });
  try {
    const [rows] = await connection.query(sql);
    return rows as unknown[];
  } finally {
    await closeQuietly(connection);
  }
}

const engine = await useDockerEngine(t, runId);
if (engine) {
  const built = await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mariadb-offline'], log: (l) => t.comment(l) });
  t.comment(`image ${built[0]?.status} in ${built[0]?.ms} ms`);
  const runtime = createDockerRuntime({ docker: engine.docker, image, runId });

  t.test('describe names the server in the image', async (t) => {
    const about = await runtime.describe();
    t.equal(about.server, 'mariadbd');
    t.match(about.version, /^10\.11\.\d+-MariaDB/);
  });

  t.test('initialize, start, query, kill, restart on what was kept, stop twice', async (t) => {
    const spec = await tempSpec();
    await runtime.initialize(spec);
    t.ok((await readdir(spec.datadir)).includes('mysql'), 'system schema written to the bind-mounted datadir');
    const first = await runtime.start(spec, 60_000);
    if (!first.ready) throw new Error(`not ready: ${first.errorLog}`);
    t.teardown(() => first.server.stop());
    t.ok(first.server.pid, 'host pid of the server is known');
    await query(first.server.socketPath, 'CREATE DATABASE db');
    await query(first.server.socketPath, 'CREATE TABLE db.t (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=InnoDB');
    await query(first.server.socketPath, "INSERT INTO db.t VALUES (1, 'one'), (2, 'two')");
    t.match(await first.server.errorLog(), /ready for connections/);
    await first.server.kill();
    t.same(await engine.docker.listContainers({ all: true, filters: { label: [`powercut-rig.run=${runId}`], } }), [], 'killed container removed');

    const second = await runtime.start(spec, 60_000);
    if (!second.ready) throw new Error(`not ready after kill: ${second.errorLog}`);
    t.teardown(() => second.server.stop());
    t.same(await query(second.server.socketPath, 'SELECT id, v FROM db.t ORDER BY id'), [{ id: 1, v: 'one' }, { id: 2, v: 'two' }], 'committed rows survived SIGKILL');
    t.notMatch(await second.server.errorLog(), /Starting MariaDB[\s\S]*Starting MariaDB/, 'errorLog() holds this start only');
    await second.server.stop();
    await second.server.stop();
    t.same(await sweepContainers(engine.docker, runId), [], 'nothing left to sweep');
  });

  t.test('with no image named, the newest built for the flavour; with none built, which to build', async (t) => {
    const images = await engine.docker.listImages();
    const built = (tag: string) => images.find((i) => (i.RepoTags ?? []).includes(tag));
    const newest = (flavor: 'mariadb' | 'mysql') =>
      IMAGE_CATALOG.filter((spec) => flavorOfImage(spec.tag) === flavor && built(spec.tag))
        .sort((a, b) => built(b.tag)!.Created - built(a.tag)!.Created)[0]?.tag;
    const mariadb = await chooseDefaultImage(engine.docker, 'mariadb');
    t.equal(mariadb.tag, newest('mariadb'), `${mariadb.tag}, built ${mariadb.created}`);
    t.ok(built(image), 'the image this file built is a candidate');
    const mysql = newest('mysql');
    if (mysql) t.equal((await chooseDefaultImage(engine.docker, 'mysql')).tag, mysql);
    else {
      const error = await chooseDefaultImage(engine.docker, 'mysql').catch((e: unknown) => e);
      t.equal((error as RigError).exitCode, 2);
      t.match((error as RigError).message, /^no --image given and no image for the host's server \(mysql\) is built: run rig images build (--offline )?--image \S+, or name one with --image$/);
    }
  });

  t.test("a second connection to the rig's own engine, which this process started, leaves it running", async (t) => {
    const { workDir, dockerHost } = contextFromEnv();
    const second = await connectEngine({ workDir, dockerHost, allowStart: false });
    t.equal(second.socketPath, engine.socketPath, 'the same engine');
    t.equal(second.started, false, 'not started here, so not stopped from here');
    await second.stop();
    t.ok(await pingEngine(engine.socketPath), 'still answers');
  });

  t.test('a missing image is bad input, one line', async (t) => {
    const spec = await tempSpec();
    const missing = createDockerRuntime({ docker: engine.docker, image: 'powercut-rig/mariadb:10.11', runId });
    const error = await missing.initialize(spec).catch((e: unknown) => e);
    t.type(error, RigError);
    t.equal((error as RigError).exitCode, 2);
    t.match((error as RigError).message, /^image powercut-rig\/mariadb:10\.11 is not in the Docker engine: build it with: rig images build --image mariadb-10\.11$/);
  });

  t.test('a datadir the container cannot write is a rig failure, one line', async (t) => {
    const spec = await tempSpec();
    await chmod(spec.datadir, 0o555); // root owns it; the container has no CAP_DAC_OVERRIDE
    const error = await runtime.initialize(spec).catch((e: unknown) => e);
    t.type(error, RigError);
    t.equal((error as RigError).exitCode, 3);
    t.match((error as RigError).message, /^datadir .* is not writable by uid 0 in the container \(.*\): make it writable by its owner$/);
    t.notMatch((error as RigError).message, /\n/);
    t.same(await sweepContainers(engine.docker, runId), [], 'the install container was removed');
  });
}
