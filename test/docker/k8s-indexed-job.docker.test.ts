/**
 * examples/ci/k8s-indexed-job.yaml run as a cluster would run it, on the engine the docker suite
 * shares: each pod of the Indexed Job is a container of the rig's image, made from the pod spec as
 * written (its command, args, working folder, env and security context, its volumes: the node's
 * /dev, and a host folder standing in for the claimed volume), with JOB_COMPLETION_INDEX set as
 * the Job controller sets it, all indexes at once as `parallelism` allows; then the merge Job's
 * pod. A small campaign stands in for campaigns/nightly.yml (bound over it read-only), so the
 * night takes a minute, and the same campaign run unsharded beside the shards is what the merged
 * run must equal: the same cycles and seeds in the same order, the same verdict classes, the same
 * scenarios. Each pod's disk registry is a host folder of its own (as a pod's /run is its own: a rig
 * judges the records it finds by their pids, and another pod's pids mean nothing in its own), so
 * the test can see what a pod left: a pod's mounts and processes end with it, its loop device
 * does not, and is detached here after a failed run. The pods carry a label of their own, not the
 * rig's run label: a rig starting elsewhere on the engine removes a container with that label
 * whose owner it cannot find, as it would a server a killed run left. The examples' syntax and each index's command line: test/examples/ci-examples.test.ts.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type Dockerode from 'dockerode';
import { Job } from 'kubernetes-models/batch/v1';
import { contextFromEnv } from '../../rig/context.js';
import { buildImages } from '../../rig/docker/build-images.js';
import { dockerPaths } from '../../rig/docker/paths.js';
import { loadResults } from '../../rig/results/load-results.js';
import { outcomeExitCode } from '../../rig/results/summarize.js';
import type { CampaignResults, CycleRecord } from '../../rig/results/types.js';
import { containerOutput } from '../../rig/runtime/docker-container.js';
import { loopBackingFile, mountsAtOrBelow } from '../../faults/system.js';
import { k8sDocuments } from '../fixtures/ci-examples.js';
import { useDockerEngine } from '../fixtures/docker-engine.js';
import { execa } from 'execa';
import { writeSmallCampaign } from '../fixtures/small-campaign.js';

t.setTimeout(1_200_000);

const IMAGE = 'powercut-rig/rig:latest'; // the example's registry.example/powercut-rig:latest, built here
const REGISTRY_IN_POD = '/run/powercut-rig/disks'; // where the rig in a pod keeps its disk records
const runId = `k8s-job-test-${process.pid}`;
const { workDir } = contextFromEnv();
const base = mkdtempSync(join(tmpdir(), 'rig-k8s-job-'));
const results = join(base, 'results'); // the claimed volume
const registry = join(base, 'registry');
for (const dir of [results, registry]) mkdirSync(dir);
const campaign = writeSmallCampaign(base, 'nightly');
writeFileSync(campaign, readFileSync(campaign, 'utf8').replace('cycles: 1', 'cycles: 2')); // a cycle for each of 4 shards

const POD_LABEL = 'powercut-rig.test-pod';
const podContainers = async (docker: Dockerode) => docker.listContainers({ all: true, filters: { label: [`${POD_LABEL}=${runId}`] } });

const engine = await useDockerEngine(t, runId);
t.teardown(async () => {
  if (engine) for (const c of await podContainers(engine.docker)) await engine.docker.getContainer(c.Id).remove({ force: true }).catch(() => {});
  // a pod removed mid-cycle leaves its loop device attached, on a file of a FUSE mount that died with it
  for (const dev of recordedLoops()) await execa('losetup', ['-d', dev], { reject: false });
  rmSync(base, { recursive: true, force: true });
});

// Linux capabilities by bit, as /proc/PID/status numbers them.
const CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP', 'LINUX_IMMUTABLE', 'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER', 'SYS_MODULE', 'SYS_RAWIO', 'SYS_CHROOT', 'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE', 'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'MKNOD', 'LEASE', 'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP', 'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG', 'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ', 'PERFMON', 'BPF', 'CHECKPOINT_RESTORE'];

/** The capabilities this process may not hand on (a machine's root can lack some: then a privileged container cannot start). */
function missingCapabilities(): string[] {
  const hex = /^CapBnd:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0';
  const mask = BigInt(`0x${hex}`);
  return CAPABILITIES.filter((_, bit) => !((mask >> BigInt(bit)) & 1n));
}

/**
 * What `privileged: true` grants, as far as this machine can: every device, no seccomp or AppArmor
 * confinement, and every capability the engine's root holds. Where root holds them all this is
 * the engine's own privileged mode; where it lacks one (CAP_SYS_RESOURCE on some hosts), the
 * engine refuses privileged containers, and the rest is granted one by one.
 */
function privileged(): Dockerode.HostConfig {
  const missing = missingCapabilities();
  if (missing.length === 0) return { Privileged: true };
  return { CapAdd: ['ALL'], CapDrop: missing, SecurityOpt: ['seccomp=unconfined', 'apparmor=unconfined'], DeviceCgroupRules: ['a *:* rwm'] };
}

type PodSpec = NonNullable<NonNullable<Job['spec']>['template']['spec']>;

/** The container a pod spec describes, as the engine takes it: the volumes bound from the host. */
function podContainer(name: string, pod: PodSpec, env: Record<string, string>): Dockerode.ContainerCreateOptions {
  const [container] = pod.containers;
  const records = join(registry, name);
  mkdirSync(records);
  const source = (name: string): string => {
    const volume = pod.volumes?.find((v) => v.name === name);
    if (volume?.hostPath) return volume.hostPath.path;
    if (volume?.persistentVolumeClaim) return results;
    throw new Error(`volume ${name}: neither a host path nor a claim`);
  };
  return {
    Image: IMAGE,
    Entrypoint: container!.command,
    Cmd: container!.args ?? [],
    WorkingDir: container!.workingDir,
    Env: Object.entries({ ...Object.fromEntries((container!.env ?? []).map((e) => [e.name, e.value ?? ''])), ...env }).map(([k, v]) => `${k}=${v}`),
    Labels: { [POD_LABEL]: runId },
    HostConfig: {
      ...(container!.securityContext?.privileged ? privileged() : { CapAdd: container!.securityContext?.capabilities?.add }),
      NetworkMode: 'none',
      Binds: [
        ...(container!.volumeMounts ?? []).map((m) => `${source(m.name)}:${m.mountPath}`),
        `${campaign}:${container!.workingDir}/campaigns/nightly.yml:ro`,
        `${records}:${REGISTRY_IN_POD}`,
      ],
    },
  };
}

/** A container run to its end: its exit code and output. */
async function runPod(docker: Dockerode, options: Dockerode.ContainerCreateOptions): Promise<{ exitCode: number; output: string }> {
  const container = await docker.createContainer(options);
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    return { exitCode: StatusCode, output: await containerOutput(container) };
  } finally {
    await container.remove({ force: true }).catch(() => {});
  }
}

const ids = (r: CampaignResults) => r.cycles.map((c) => `${c.id} seed ${c.seed}`);
const verdictClass = (c: CycleRecord) => (c.verdict === 'rig-error' ? 'rig-error' : 'judged');
/** Every pod's disk records, as POD/FILE. */
const registryRecords = () => readdirSync(registry).flatMap((pod) => readdirSync(join(registry, pod)).filter((n) => n.endsWith('.json')).map((n) => join(pod, n)));
/** The loop devices the pods' records name that are still attached to a file of the record's name. */
const recordedLoops = () =>
  registryRecords()
    .map((n) => JSON.parse(readFileSync(join(registry, n), 'utf8')) as { loopDevice: string | null; device: string })
    .filter((r) => r.loopDevice && loopBackingFile(r.loopDevice)?.endsWith(`/${basename(r.device)}`))
    .map((r) => r.loopDevice!);

if (engine) {
  t.test("the rig's image is built offline (or was already)", async (t) => {
    const built = await buildImages({ docker: engine.docker, paths: dockerPaths(workDir), names: ['rig'], offline: true, log: (l) => t.comment(l) });
    t.comment(built.map((b) => `${b.tag} ${b.status} in ${(b.ms / 1000).toFixed(1)} s`).join(', '));
    t.ok(await engine.docker.getImage(IMAGE).inspect(), IMAGE);
  });

  t.test("each index's pod, then the merge Job's pod: the merged night equals one unsharded run", async (t) => {
    const [shardJob, mergeJob] = k8sDocuments().map((d) => new Job(d as ConstructorParameters<typeof Job>[0]));
    const spec = shardJob!.spec!;
    const pod = spec.template.spec!;
    const n = spec.completions!;
    const parallel = spec.parallelism ?? 1;
    const started = Date.now();

    // the unsharded run: the same image and pod, its own command
    const whole = runPod(engine.docker, {
      ...podContainer('unsharded', pod, {}),
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: ['node dist/rig/cli/main.js campaign campaigns/nightly.yml --seed "$SEED" --out /results/whole || test $? -eq 1'],
    });
    const shards: { exitCode: number; output: string }[] = [];
    for (let first = 0; first < n; first += parallel) {
      const wave = Array.from({ length: Math.min(parallel, n - first) }, (_, k) => runPod(engine.docker, podContainer(`index-${first + k}`, pod, { JOB_COMPLETION_INDEX: String(first + k) })));
      shards.push(...(await Promise.all(wave)));
    }
    const unsharded = await whole;
    t.comment(`${n} pods, ${parallel} at a time, beside the unsharded run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const dir of readdirSync(results)) {
      const cycles = (await loadResults(join(results, dir)).catch(() => null))?.results.cycles ?? [];
      for (const c of cycles.filter((c) => c.verdict === 'rig-error')) t.comment(`${dir}: ${c.id}: rig error: ${c.reason}`);
    }
    shards.forEach((s, index) => t.equal(s.exitCode, 0, `index ${index}: the pod succeeded (its shard ran to a verdict)\n${s.output.split('\n').slice(-6).join('\n')}`));
    t.equal(unsharded.exitCode, 0, `the unsharded run ran to a verdict\n${unsharded.output.split('\n').slice(-6).join('\n')}`);
    t.same(
      readdirSync(results).sort(),
      [...Array.from({ length: n }, (_, i) => `shard-${i + 1}`), 'whole'].sort(),
      'each index wrote its own shard folder on the volume',
    );

    const merge = await runPod(engine.docker, podContainer('merge', mergeJob!.spec!.template.spec!, {}));
    const merged = (await loadResults(join(results, 'merged'))).results;
    const one = (await loadResults(join(results, 'whole'))).results;
    t.equal(merge.exitCode, outcomeExitCode(merged.outcome), `the merge pod exits with the night's verdict, ${merged.outcome}\n${merge.output}`);
    t.equal(merged.cycles.length, 4, `the campaign's 4 cycles merged from ${n} shards`);
    t.same(ids(merged), ids(one), 'the same cycles and seeds, in the same order');
    t.same(merged.cycles.map(verdictClass), one.cycles.map(verdictClass), 'the same verdict classes');
    t.same(
      merged.scenarios.map((s) => [s.name, s.cyclesPlanned, s.cyclesRun, s.expectation]),
      one.scenarios.map((s) => [s.name, s.cyclesPlanned, s.cyclesRun, s.expectation]),
      'the same scenarios',
    );
    t.equal(merged.seed, one.seed, `one seed for the night (${merged.seed})`);
    t.match(merged.environment.serverVersion, /^11\.8\./, "the pods ran the image's MariaDB 11.8");

    t.same(mountsAtOrBelow(base), [], 'no mount left on the host');
    t.same(recordedLoops(), [], 'no loop device left attached');
    t.same(registryRecords(), [], 'no disk record left');
    t.same(await podContainers(engine.docker), [], 'no pod container left');
  });
}
