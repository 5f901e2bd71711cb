/**
 * A bundle as a server developer runs it: Docker and a shell, no Node and no rig. The page-0
 * finding's crash state is built on purpose from one recorded load (test/fixtures/page0-state.ts:
 * page 0 of a table torn while its doublewrite copy was durable, every other write landed), judged
 * by the host's MariaDB 10.11, bundled, and unpacked in an empty folder. There `./reproduce.sh`
 * runs the offline image of that release (the bundle names it) in the engine the suite shares: it
 * exits 1 and shows the server's log line; with page 0 put back from its copy as the README says,
 * 0. A `node` first on the PATH that fails loudly proves the script never runs one.
 */
import t from 'tap';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { imageFor } from '../../rig/bundle/expected-outcome.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { contextFromEnv } from '../../rig/context.js';
import { createLocalRuntime } from '../../rig/runtime/local.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { localScenario } from '../fixtures/local-scenario.js';
import { tornPage0Cycle } from '../fixtures/page0-state.js';
import { PREPARED_CACHE } from '../fixtures/prepared-cache.js';
import { ensureBuilt, leftoversUnder, rig } from '../fixtures/rig-cli.js';

const work = mkdtempSync(join(tmpdir(), 'rig-bundle-docker-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const runId = `bundle-test-${process.pid}`;

const engine = await useDockerEngine(t, runId);
if (engine) {
  await ensureBuilt();
  await buildImages({ docker: engine.docker, paths: dockerPaths(contextFromEnv().workDir), names: ['mariadb-offline'], log: (l) => t.comment(l) });
  const settings = localScenario('bundle', { server: { bufferPool: '64M' }, disk: { trigger: { kind: 'at-time', ms: 6000 } }, expect: 'recovers' });

  t.test('reproduce.sh with Docker and no Node: 1 with the torn page 0, 0 with its copy put back', async (t) => {
    const state = await tornPage0Cycle(settings, work, PREPARED_CACHE, createLocalRuntime(), 0);
    t.comment(`built: page 0 write ${state.page0Seq} torn; ${state.record.verdict}: ${state.record.reason}`);
    t.equal(state.record.expectationHeld, false, 'the built state breaks the server (the finding)');

    const tarball = join(work, 'page0.tar.gz');
    const made = await rig(['bundle', state.dir, '--out', tarball], { RIG_CACHE: PREPARED_CACHE });
    t.equal(made.exitCode, 0, made.stderr);
    t.comment(`bundle: ${(statSync(tarball).size / 1024).toFixed(0)} KiB`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    await execa('tar', ['xzf', tarball, '-C', unpacked]);
    const [dir] = (await execa('sh', ['-c', 'ls -d */'], { cwd: unpacked })).stdout.split('\n').map((d) => join(unpacked, d.replace(/\/$/, '')));
    t.ok(dir && existsSync(join(dir, 'reproduce.sh')), `reproduce.sh in ${dir}`);
    t.match(readFileSync(join(dir!, 'expected.env'), 'utf8'), `EXPECT_IMAGE=${imageFor(state.record)}`, "the bundle names the offline image of the host's release");

    const poison = join(work, 'no-node');
    mkdirSync(poison);
    writeFileSync(join(poison, 'node'), '#!/bin/sh\necho "reproduce.sh ran node" >&2\nexit 99\n');
    chmodSync(join(poison, 'node'), 0o755);
    const scratch = join(work, 'tmp'); // reproduce.sh's copy of the datadir, which its container mounts
    mkdirSync(scratch);
    const dockerHost = engine.socketPath.includes('://') ? engine.socketPath : `unix://${engine.socketPath}`;
    const env = { PATH: `${poison}:/usr/sbin:/usr/bin:/bin`, DOCKER_HOST: dockerHost, TMPDIR: scratch };
    const run = await execa('./reproduce.sh', { cwd: dir, env, extendEnv: false, reject: false, timeout: 300_000 });
    t.comment(run.stdout);
    t.equal(run.exitCode, 1, `the failure reproduced (${run.stderr.trim()})`);
    t.match(run.stdout, /reproduce\.sh: REPRODUCED/);
    t.match(run.stdout, /this run's log: +.*The first page of file \.\/sbtest\/sbtest\d+\.ibd is corrupted/, 'the same log line, shown');
    t.notMatch(run.stderr, /ran node/, 'no node was run');

    const fix = /^dd if=datadir\/ibdata1 of=datadir\/\S+ bs=16384 skip=\d+ seek=0 count=1 conv=notrunc$/m.exec(readFileSync(join(dir!, 'README.md'), 'utf8'))?.[0];
    t.ok(fix, 'the README says how to put the copy back by hand');
    await execa('sh', ['-c', fix!], { cwd: dir });
    const fixed = await execa('./reproduce.sh', { cwd: dir, env, extendEnv: false, reject: false, timeout: 300_000 });
    t.comment(fixed.stdout);
    t.equal(fixed.exitCode, 0, `with page 0 its doublewrite copy: the server recovers cleanly (${fixed.stderr.trim()})`);

    const left = (await engine.docker.listContainers({ all: true })).filter((c) => c.Mounts.some((m) => m.Source.startsWith(scratch)));
    t.same(left.map((c) => c.Names.join(',')), [], 'reproduce.sh removed its containers');
    t.same(readdirSync(scratch), [], 'and its copies of the datadir');
    t.same(leftoversUnder(work), [], 'nothing left mounted, attached or running');
  });
}
