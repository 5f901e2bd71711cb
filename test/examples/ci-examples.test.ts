/**
 * The CI examples proven as their platforms read them, not just shipped. The GitHub workflow is
 * parsed and converted by GitHub's own parser (@actions/workflow-parser), its expressions
 * evaluated by GitHub's evaluator for each matrix value; the Kubernetes Jobs are validated against
 * the Kubernetes API models (kubernetes-models) and hold what a pod needs for FUSE and loop
 * devices. The command of every shard, and of the merge, is expanded by a real shell into the
 * argv `node` would get, and that argv must parse with the CLI's own program (its campaign file
 * loads): one shard per index, the same seed in each, every shard's folder merged.
 * The Indexed Job's command run for real, per index, in the rig's image: test/docker/k8s-indexed-job.docker.test.ts.
 */
import t from 'tap';
import { Job } from 'kubernetes-models/batch/v1';
import { evaluateExpression, evaluateTemplate, k8sDocuments, nodeCalls, parseGithubWorkflow, type WorkflowJob } from '../fixtures/ci-examples.js';
import { problemOf } from '../docs/command-line-problems.js';

const CLI = 'dist/rig/cli/main.js';

/** What is wrong with a `node dist/rig/cli/main.js ...` argv, or null. */
async function cliProblem(argv: string[], where: string): Promise<string | null> {
  if (argv[0] !== CLI) return `${where}: node runs ${argv[0]}, not the rig's CLI`;
  return problemOf({ file: where, line: 0, text: argv.join(' '), args: argv.slice(1), inline: false });
}

/** The value after a flag in an argv. */
const flag = (argv: string[], name: string) => argv[argv.indexOf(name) + 1];

t.test('the GitHub workflow: parsed by GitHub\'s parser, each shard\'s command one the CLI takes', async (t) => {
  const workflow = await parseGithubWorkflow();
  t.same(workflow.errors, [], 'no parse or schema error');
  const shard = workflow.jobs.find((j) => j.id === 'shard') as WorkflowJob;
  const merge = workflow.jobs.find((j) => j.id === 'merge') as WorkflowJob;
  t.ok(shard && merge, 'a shard job and a merge job');
  const shards = (shard.matrix.shard ?? []) as number[];
  t.ok(shards.length >= 2, `a matrix of ${shards.length} shards`);
  t.same(shards, shards.map((_, i) => i + 1), 'shards numbered 1..N');

  const runStep = shard.steps.find((s) => s.run?.includes('campaign'));
  t.ok(runStep?.runIsExpression, 'the shard step is an expression of the matrix');
  const runId = 9_876_543_210;
  const seeds = new Set<string>();
  const outs: string[] = [];
  for (const n of shards) {
    const line = await evaluateExpression(runStep!.run!, { github: { run_id: String(runId) }, matrix: { shard: n } });
    const calls = await nodeCalls(line, {}, 'bash');
    t.equal(calls.length, 1, `shard ${n}: one node call: ${line}`);
    const argv = calls[0]!;
    t.equal(await cliProblem(argv, `${shard.id} shard ${n}`), null, `shard ${n}: ${argv.join(' ')}`);
    t.equal(argv[1], 'campaign');
    t.equal(flag(argv, '--shard'), `${n}/${shards.length}`, `shard ${n} runs its share`);
    seeds.add(flag(argv, '--seed') ?? '');
    outs.push(flag(argv, '--out') ?? '');
    const upload = shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    t.ok(upload, 'each shard uploads its folder');
    const name = await evaluateTemplate(upload!.with.name ?? '', { matrix: { shard: n } });
    const path = await evaluateTemplate(upload!.with.path ?? '', { matrix: { shard: n } });
    t.equal(path, flag(argv, '--out'), `shard ${n} uploads the folder it wrote`);
    t.equal(name, `shard-${n}`, `shard ${n}'s artifact is named for it`);
  }
  t.same([...seeds], [String(runId)], "every shard gets the run's id as the seed: one seed a night, the same for all");
  t.equal(new Set(outs).size, shards.length, 'each shard writes its own folder');

  t.same(merge.needs, ['shard'], 'the merge waits for the shards');
  t.match(merge.if ?? '', /always\(\)/, 'and runs when a shard failed');
  const download = merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
  const dir = download?.with.path;
  const mergeStep = merge.steps.find((s) => s.run?.includes(' merge '));
  const [argv, ...more] = await nodeCalls(mergeStep!.run!, {}, 'bash');
  t.equal(more.length, 0);
  t.equal(await cliProblem(argv!, 'merge'), null, argv!.join(' '));
  // download-artifact puts each artifact in a folder of its name under `path`
  t.same(argv!.slice(2), ['merged', `${dir}/shard-*`], 'the merge names every downloaded shard (the glob matches nothing here, as no shard ran)');
});

t.test('the GitHub parser is a real check: it refuses a broken workflow', async (t) => {
  const broken = await parseGithubWorkflow('broken.yml', 'on: push\njobs:\n  shard:\n    runs-on: ubuntu-latest\n    stepz:\n      - run: echo\n');
  t.ok(broken.errors.length > 0, `errors: ${broken.errors.join('; ')}`);
  t.match(broken.errors.join('\n'), /stepz/);
});

t.test('the Kubernetes Jobs: valid API objects, pods that can use FUSE and loop devices, one shard per index', async (t) => {
  const docs = k8sDocuments();
  t.equal(docs.length, 2, 'the sharded Job and the merge Job');
  const [shardJob, mergeJob] = docs.map((d) => new Job(d as ConstructorParameters<typeof Job>[0]));
  for (const job of [shardJob!, mergeJob!]) t.doesNotThrow(() => job.validate(), `${job.metadata?.name}: valid against the batch/v1 Job model`);

  const spec = shardJob!.spec!;
  t.equal(spec.completionMode, 'Indexed');
  const n = spec.completions!;
  t.ok(n >= 2, `${n} completions`);
  const pod = spec.template.spec!;
  const container = pod.containers[0]!;
  t.equal(container.securityContext?.privileged, true, 'privileged: the only way a pod may open /dev/fuse and loop devices');
  const dev = pod.volumes?.find((v) => v.hostPath?.path === '/dev');
  t.ok(dev && container.volumeMounts?.some((m) => m.name === dev.name && m.mountPath === '/dev'), "the node's /dev, where the loop devices the rig attaches appear");
  const results = (p: typeof pod) => p.volumes?.find((v) => v.persistentVolumeClaim)?.persistentVolumeClaim?.claimName;
  t.ok(results(pod), 'shards write to a claimed volume');
  t.equal(results(mergeJob!.spec!.template.spec!), results(pod), 'the merge reads the same volume');

  const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? '']));
  const line = [...(container.command ?? []).slice(2), ...(container.args ?? [])].join(' ');
  t.same(container.command?.slice(0, 2), ['/bin/sh', '-c'], 'the command is a shell line');
  const seeds = new Set<string>();
  const outs: string[] = [];
  for (let index = 0; index < n; index++) {
    const calls = await nodeCalls(line, { ...env, JOB_COMPLETION_INDEX: String(index) });
    t.equal(calls.length, 1, `index ${index}: one node call`);
    const argv = calls[0]!;
    t.equal(await cliProblem(argv, `index ${index}`), null, `index ${index}: ${argv.join(' ')}`);
    t.equal(flag(argv, '--shard'), `${index + 1}/${n}`, `index ${index} runs shard ${index + 1} of ${n}`);
    seeds.add(flag(argv, '--seed') ?? '');
    outs.push(flag(argv, '--out') ?? '');
  }
  t.equal(seeds.size, 1, 'every pod of the Job gets the same seed');
  t.match([...seeds][0], /^\d+$/, 'a seed the CLI takes');
  t.equal(new Set(outs).size, n, 'each index its own folder');

  const merger = mergeJob!.spec!.template.spec!.containers[0]!;
  const [argv] = await nodeCalls([...(merger.command ?? []).slice(2), ...(merger.args ?? [])].join(' '));
  t.equal(await cliProblem(argv!, 'merge'), null, argv!.join(' '));
  const glob = new RegExp(`^${argv![argv!.length - 1]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  t.ok(outs.every((o) => glob.test(o)), `the merge's ${argv![argv!.length - 1]} takes every shard's folder (${outs.join(', ')})`);
});

t.test('the Kubernetes models are a real check: they refuse a pod spec that is not one', async (t) => {
  const [doc] = k8sDocuments() as { spec: { template: { spec: { containers: { securityContext: unknown }[] } } } }[];
  doc!.spec.template.spec.containers[0]!.securityContext = { privileged: 'yes' };
  t.throws(() => new Job(doc as ConstructorParameters<typeof Job>[0]).validate(), /privileged must be boolean/);
});
