/**
 * The campaign file's shape, checked with zod. Every object is strict (an unknown key is an error
 * that lists the keys allowed there), and fields with their own syntax are checked into the values
 * the rig uses: sizes to bytes, `on`/`off` to booleans, trigger text to a TriggerSpec.
 */
import { DISK_BACKENDS } from '../../faults/disk-record.js';
import { z } from 'zod';
import { show, type Checked } from '../../faults/checked.js';
import { DATADIR_FILESYSTEMS } from '../../faults/filesystems.js';
import { checkAtomicUnit, checkSize } from '../../faults/sizes.js';
import { readDeviceProfile } from '../../faults/device-profile.js';
import { ENGINES, EXPECTATIONS, EXPLORE_PICKS, FLUSH_METHODS, FLUSHINGS, RUNTIMES } from '../results/types.js';
import { FINDING_IDS } from '../results/finding-ids.js';
import { EVIDENCE_REASONS } from './evidence-policy.js';
import { checkCampaignTrigger, checkDoublewrite, checkPageSize } from './field-parsers.js';
import { closestKey } from './issue-message.js';
import { checkFates } from './fates-field.js';
import { checkLoadMix } from './load-mix-field.js';

export const SAFE_NAME = /^[a-z0-9][a-z0-9._-]*$/;
const MAX_SEED = 2 ** 32 - 1;

/** A field with its own syntax: the check's problem becomes the zod issue's message. */
function field<T>(check: (value: unknown) => Checked<T>) {
  return z.unknown().transform((value, ctx): T => {
    const checked = check(value);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: 'custom', message: checked.problem });
    return z.NEVER;
  });
}

/** A strict object whose unknown-key error lists the keys that are allowed there. */
function section<S extends z.core.$ZodLooseShape>(shape: S) {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeyMessage(issue.keys, keys) : undefined),
  });
}

function unknownKeyMessage(unknown: string[], keys: string[]): string {
  const guess = closestKey(unknown[0]!, keys);
  const hint = guess ? `did you mean ${guess}? ` : '';
  return `unknown key; ${hint}the keys here are ${keys.join(', ')}`;
}

const count = (max: number) => z.number().int().min(1).max(max);

export const safeName = z.string().regex(SAFE_NAME, {
  error: (issue) =>
    `${show(issue.input)} is not safe as a folder name; use lower-case letters, digits, '.', '_' or '-', starting with a letter or digit`,
});

export const serverSchema = section({
  engine: z.enum(ENGINES).optional(),
  doublewrite: field(checkDoublewrite).optional(),
  flushMethod: z.enum(FLUSH_METHODS).optional(),
  pageSize: field(checkPageSize).optional(),
  bufferPool: field((v) => checkSize(v, 2 * 1024 * 1024, '64M')).optional(),
  redoSize: field((v) => checkSize(v, 4 * 1024 * 1024, '96M')).optional(),
  flushing: z.enum(FLUSHINGS).optional(),
});

export const diskSchema = section({
  profile: field(readDeviceProfile).optional(),
  atomic: field(checkAtomicUnit).optional(),
  fs: z.enum(DATADIR_FILESYSTEMS).optional(),
  backend: z.enum(DISK_BACKENDS).optional(),
  trigger: field(checkCampaignTrigger).optional(),
  cacheBound: field((v) => checkSize(v, 4096, '256M')).optional(),
  size: field((v) => checkSize(v, 16 * 1024 * 1024, '1G')).optional(),
  fates: field(checkFates).optional(),
});

export const loadSchema = section({
  kind: z.enum(['builtin', 'sysbench']).optional(),
  connections: count(1024).optional(),
  tables: count(1000).optional(),
  rows: count(100_000_000).optional(),
  maxSeconds: z.number().positive().max(86_400).optional(),
  mix: field(checkLoadMix).optional(),
});

/** The share of judged cycles that must exercise the scenario's claim (rig/results/exercise-claim.ts). */
export const exerciseSchema = section({
  minShare: z.number().min(0).max(1, { error: 'minShare is a share of cycles, from 0 to 1 (e.g. 0.5 for half)' }),
});

/** What a scenario and the campaign's `defaults` may both set. */
const scenarioFields = {
  cycles: count(100_000).optional(),
  /**
   * live: each cycle cuts once; explore: each cycle records a load run and judges `states` crash
   * states of it; perf: each cycle is a pair of sysbench runs of `seconds`, doublewrite on then off.
   */
  mode: z.enum(['live', 'explore', 'perf']).optional(),
  states: count(100_000).optional(),
  seconds: count(3600).optional(),
  pick: z.enum(EXPLORE_PICKS).optional(),
  runtime: z.enum(RUNTIMES).optional(),
  image: z.string().min(1).optional(),
  expect: z.enum(EXPECTATIONS).optional(),
  server: serverSchema.optional(),
  disk: diskSchema.optional(),
  load: loadSchema.optional(),
  exercise: exerciseSchema.optional(),
  /** Written-up findings this scenario hunts or knows (rig/findings/catalog.ts). */
  findings: z.array(z.enum(FINDING_IDS)).min(1, { error: 'findings is empty; name at least one or leave it out' }).optional(),
};

export const defaultsSchema = section(scenarioFields);

/** One scenario after its matrix (if any) was expanded: `matrix` is gone by then. */
export const scenarioSchema = section({
  name: safeName,
  seeds: z.array(z.number().int().min(0).max(MAX_SEED)).min(1).optional(),
  ...scenarioFields,
});

export const campaignSchema = section({
  name: safeName,
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  defaults: defaultsSchema.optional(),
  evidence: section({
    maxBytes: field((v) => checkSize(v, 1024 * 1024, '2G')).optional(),
    keep: z.array(z.enum(EVIDENCE_REASONS)).min(1, { error: 'keep is empty; name what keeps evidence (contradicting, findings, torn, sample, all) or leave it out' }).optional(),
    sample: count(1_000_000).optional(),
  }).optional(),
  scenarios: z.array(z.unknown()).min(1, { error: 'no scenarios; add at least one under scenarios:' }),
});

export type ScenarioFields = z.infer<typeof defaultsSchema>;
export type ParsedScenario = z.infer<typeof scenarioSchema>;
export type ParsedCampaign = z.infer<typeof campaignSchema>;
