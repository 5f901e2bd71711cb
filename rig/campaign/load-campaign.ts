/**
 * Reads a campaign file into a Campaign: YAML parsed, checked with zod, matrices expanded, every
 * scenario resolved against the defaults and checked for impossible combinations, every cycle's
 * seed fixed. Any problem is one bad-input line (`file: key.path: what; the fix`), exit 2,
 * before anything is created.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { parseDocument } from 'yaml';
import { badInput } from '../errors.js';
import { DEFAULT_CYCLES, DEFAULT_EVIDENCE_MAX_BYTES, DEFAULT_SEED } from '../defaults.js';
import { DEFAULT_EVIDENCE_KEEP, type EvidencePolicy, type EvidenceReason } from './evidence-policy.js';
import { checkSettings } from './check-settings.js';
import { defaultMessage, formatPath, issuePath } from './issue-message.js';
import { type MatrixVariant, expandMatrix, isRecord } from './matrix.js';
import { resolveScenario } from './resolve-scenario.js';
import { type ScenarioFields, campaignSchema, scenarioSchema } from './schema.js';
import { cycleSeeds } from './seeds.js';
import type { Campaign, CampaignProblem, PlannedScenario } from './types.js';

export interface CampaignOverrides {
  cycles?: number; // --cycles N: every scenario runs N cycles
  seed?: number; // --seed S: the campaign seed
}

export async function loadCampaign(file: string, overrides: CampaignOverrides = {}): Promise<Campaign> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw badInput(`${file}: cannot read the campaign file (${(error as NodeJS.ErrnoException).code ?? error}); check the path`, error);
  }
  return parseCampaign(text, file, overrides);
}

export function parseCampaign(text: string, file: string, overrides: CampaignOverrides = {}): Campaign {
  const doc = parseDocument(text);
  const yamlError = doc.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    const where = at ? `${file}:${at.line}:${at.col}` : file;
    const message = yamlError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw badInput(`${where}: ${message}; fix the YAML syntax there`);
  }
  if (doc.contents === null) throw badInput(`${file}: the file holds no campaign (it is empty, or comments alone); write one, e.g. as campaigns/quick.yml does`);
  return campaignFrom(doc.toJS(), file, overrides);
}

/**
 * The campaign a parsed document describes. `where` names a problem's place for the one-line
 * error: by default the file and the key path; `rig cycle` names its flags instead.
 */
export function campaignFrom(
  document: unknown,
  file: string,
  overrides: CampaignOverrides = {},
  where: (path: PropertyKey[]) => string = (path) => `${file}: ${formatPath(path)}`,
): Campaign {
  const fail = (problem: CampaignProblem) => badInput(`${where(problem.path)}: ${problem.message}`);
  const parsed = campaignSchema.safeParse(document, { error: defaultMessage });
  if (!parsed.success) throw fail(firstProblem(parsed.error.issues, []));
  const campaign = parsed.data;
  const seed = overrides.seed ?? campaign.seed ?? DEFAULT_SEED;
  const scenarios = campaign.scenarios.flatMap((raw, i) =>
    planScenario(raw, i, campaign.defaults ?? {}, seed, overrides, fail),
  );
  checkUniqueNames(scenarios, fail);
  return {
    name: campaign.name,
    file,
    seed,
    evidence: evidencePolicy(campaign.evidence ?? {}, fail),
    scenarios: scenarios.map(({ planned }) => planned),
  };
}

/** The campaign's evidence section as the keeper uses it; sample and keep must agree. */
function evidencePolicy(e: { maxBytes?: number; keep?: EvidenceReason[]; sample?: number }, fail: (p: CampaignProblem) => Error): EvidencePolicy {
  const keep = e.keep ?? DEFAULT_EVIDENCE_KEEP;
  if (keep.includes('sample') && e.sample === undefined) {
    throw fail({ path: ['evidence', 'sample'], message: 'keep names sample, so say how many cycles a scenario keeps (sample: 3)' });
  }
  if (e.sample !== undefined && !keep.includes('sample')) {
    throw fail({ path: ['evidence', 'sample'], message: `sample is set but keep (${keep.join(', ')}) does not name it; add sample to keep, or remove sample` });
  }
  return { keep, sample: keep.includes('sample') ? e.sample! : 0, maxBytes: e.maxBytes ?? DEFAULT_EVIDENCE_MAX_BYTES };
}

interface Located {
  planned: PlannedScenario;
  index: number; // in the file's scenarios list
  fromMatrix: boolean;
}

type Fail = (problem: CampaignProblem) => Error;

function planScenario(raw: unknown, index: number, defaults: ScenarioFields, seed: number, overrides: CampaignOverrides, fail: Fail): Located[] {
  const at = ['scenarios', index];
  if (!isRecord(raw)) throw fail({ path: at, message: 'expected a mapping with name: and its settings' });
  const nameCheck = scenarioSchema.shape.name.safeParse(raw.name, { error: defaultMessage });
  if (!nameCheck.success) throw fail(firstProblem(nameCheck.error.issues, [...at, 'name']));
  const variants = expandMatrix(raw);
  if (!Array.isArray(variants)) throw fail({ ...variants, path: [...at, ...variants.path] });
  return variants.map((variant) => ({
    planned: planVariant(variant, at, defaults, seed, overrides, fail),
    index,
    fromMatrix: variant.choices.size > 0,
  }));
}

function planVariant(variant: MatrixVariant, at: PropertyKey[], defaults: ScenarioFields, seed: number, overrides: CampaignOverrides, fail: Fail): PlannedScenario {
  const where = (path: PropertyKey[]) => [...at, ...matrixPath(variant, path)];
  const suffix = (path: PropertyKey[]) =>
    variant.choices.size > 0 && matrixPath(variant, path) === path ? ` (in ${String(variant.raw.name)})` : '';
  const parsed = scenarioSchema.safeParse(variant.raw, { error: defaultMessage });
  if (!parsed.success) {
    const problem = firstProblem(parsed.error.issues, []);
    throw fail({ path: where(problem.path), message: problem.message + suffix(problem.path) });
  }
  const { settings, cycles: fileCycles, stray } = resolveScenario(defaults, parsed.data);
  if (stray) throw fail({ path: where(stray.path), message: stray.message });
  const problem = checkSettings(settings);
  if (problem) {
    const path = problem.key.split('.');
    throw fail({ path: where(path), message: problem.message + suffix(path) });
  }
  const explicit = parsed.data.seeds ?? [];
  if (fileCycles !== null && explicit.length > fileCycles) {
    throw fail({ path: [...at, 'seeds'], message: `${explicit.length} seeds for ${fileCycles} cycles; remove seeds or set cycles: ${explicit.length}` });
  }
  const cycles = overrides.cycles ?? fileCycles ?? (explicit.length || DEFAULT_CYCLES);
  return { settings, cycles, seeds: cycleSeeds(seed, settings.name, cycles, explicit) };
}

/** A path inside a matrix variant, pointed at the matrix entry when the matrix set that value. */
function matrixPath(variant: MatrixVariant, path: PropertyKey[]): PropertyKey[] {
  for (const [key, choice] of variant.choices) {
    const keyPath = key.split('.');
    if (keyPath.every((part, i) => path[i] === part)) return ['matrix', key, choice];
  }
  return path;
}

/** Unknown keys first (a typo often explains the rest), else zod's first issue. */
function firstProblem(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): CampaignProblem {
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  return { path: [...prefix, ...issuePath(issue)], message: issue.message };
}

function checkUniqueNames(scenarios: Located[], fail: Fail): void {
  const seen = new Map<string, number>();
  for (const { planned, index, fromMatrix } of scenarios) {
    const name = planned.settings.name;
    const first = seen.get(name);
    if (first !== undefined) {
      const path = ['scenarios', index, fromMatrix ? 'matrix' : 'name'];
      const origin = first === index ? 'another variant of this matrix' : `scenarios[${first}]`;
      throw fail({ path, message: `'${name}' is already the name of ${origin}; give every scenario its own name` });
    }
    seen.set(name, index);
  }
}
