/**
 * Disk use per 1,000 cycles under each evidence setting, from a real run that kept everything
 * (`evidence: {keep: [all]}` and a cap it never reaches). Every cycle's folder is measured as it
 * lies (allocated blocks): its crash image, journal and plan are what evidence costs, its small
 * files (record, error log, order log) stay whatever the setting. Each setting's cost is then what
 * the same cycles would have kept under it (rig/campaign/evidence-policy.ts decides, as in a run),
 * before the cap, plus the small files and the records' share of cycles.jsonl, scaled to 1,000.
 * Run from the project root: `make build && node dist/bench/evidence.js [DIR]`; without DIR it runs
 * campaigns/nightly.yml itself first, one cycle a scenario, keeping all (about 15 minutes here).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { allocatedBytes } from '../rig/campaign/allocated-bytes.js';
import { evidenceReason, type EvidencePolicy } from '../rig/campaign/evidence-policy.js';
import { openResults } from '../rig/results/load-results.js';
import type { CycleRecord } from '../rig/results/types.js';

const SETTINGS: [string, Pick<EvidencePolicy, 'keep' | 'sample'>][] = [
  ['contradicting', { keep: ['contradicting'], sample: 0 }],
  ['contradicting, findings', { keep: ['contradicting', 'findings'], sample: 0 }],
  ['contradicting, findings, torn (default)', { keep: ['contradicting', 'findings', 'torn'], sample: 0 }],
  ['default + sample 1', { keep: ['contradicting', 'findings', 'torn', 'sample'], sample: 1 }],
  ['all', { keep: ['all'], sample: 0 }],
];

/** What repro needs beyond the small files: the part of a folder a setting keeps or sheds. */
const EVIDENCE_FILES = ['cut/image.img', 'cut/journal.bin'];

const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

/** The nightly campaign, one cycle a scenario, every cycle keeping its evidence: its folder. */
async function runKeepingAll(root: string): Promise<string> {
  const file = join(root, 'nightly-all.yml');
  const text = await readFile('campaigns/nightly.yml', 'utf8');
  await writeFile(file, text.replace(/^evidence: .*$/m, 'evidence: {maxBytes: 500G, keep: [all]}'));
  const out = join(root, 'run');
  const run = await execa('node', ['dist/rig/cli/main.js', 'campaign', file, '--cycles', '1', '--out', out], { reject: false, stdio: 'inherit' });
  if (run.exitCode === 2 || run.exitCode === 3) throw new Error(`the campaign did not run (exit ${run.exitCode})`);
  return out;
}

async function main(): Promise<void> {
  const root = process.argv[2] ? null : await mkdtemp(join(tmpdir(), 'rig-bench-evidence-'));
  try {
    await measure(process.argv[2] ?? (await runKeepingAll(root!)));
  } finally {
    if (root) await rm(root, { recursive: true, force: true });
  }
}

async function measure(dir: string): Promise<void> {
  const opened = await openResults(dir);
  const cycles: { record: CycleRecord; evidence: number; small: number }[] = [];
  for await (const record of opened.records()) {
    if (record.evidenceDir === null) throw new Error(`${record.id} kept no evidence: run the campaign with evidence: {keep: [all]} and a cap it cannot reach`);
    const folder = join(opened.dir, record.evidenceDir);
    const evidence = EVIDENCE_FILES.reduce((n, f) => n + allocatedBytes(join(folder, f)), 0);
    cycles.push({ record, evidence, small: allocatedBytes(folder) - evidence });
  }
  const n = cycles.length;
  const jsonl = (await stat(join(opened.dir, 'cycles.jsonl'))).size;
  const small = cycles.reduce((s, c) => s + c.small, 0);
  console.log(`${opened.summary.campaign}: ${n} cycles in ${dir}; per cycle: evidence ${gib(cycles.reduce((s, c) => s + c.evidence, 0) / n)}, small files ${(small / n / 1024 ** 2).toFixed(2)} MiB, record ${(jsonl / n / 1024).toFixed(1)} KiB`);
  for (const [name, policy] of SETTINGS) {
    const kept = cycles.filter((c) => evidenceReason(c.record, policy) !== null);
    const bytes = kept.reduce((s, c) => s + c.evidence, 0) + small + jsonl;
    console.log(`${name.padEnd(42)} keeps ${String(kept.length).padStart(4)} of ${n}: ${gib((bytes * 1000) / n)} per 1,000 cycles (before the cap)`);
  }
}

await main();
