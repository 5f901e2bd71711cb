/**
 * `matrix:` on a scenario: each key is a dotted setting (`disk.fs`, `server.doublewrite`), each
 * value a list; the scenario expands into one variant per combination (the first key varies
 * slowest), named `<name>-<value>-<value>...`.
 */
import { show } from '../../faults/checked.js';
import { diskSchema, loadSchema, serverSchema } from './schema.js';
import type { CampaignProblem } from './types.js';

const SECTIONS = { server: serverSchema, disk: diskSchema, load: loadSchema };

type Raw = Record<string, unknown>;
type Scalar = string | number | boolean;

/** The settings a matrix can vary: a scenario's own, then each section's, as the schema names them. */
export const MATRIX_KEYS = [
  'cycles', 'runtime', 'image', 'expect',
  ...(['server', 'disk', 'load'] as const).flatMap((section) => Object.keys(SECTIONS[section].shape).map((key) => `${section}.${key}`)),
];

export interface MatrixVariant {
  raw: Raw; // the scenario with the matrix values filled in and `matrix` removed
  choices: Map<string, number>; // matrix key -> index of the value this variant took
}

export function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The scenario's variants (itself alone when it has no matrix), or the first problem found. */
export function expandMatrix(scenario: Raw): MatrixVariant[] | CampaignProblem {
  const { matrix, ...base } = scenario;
  if (matrix === undefined) return [{ raw: base, choices: new Map() }];
  const checked = checkMatrix(matrix, base);
  if (!Array.isArray(checked)) return checked;
  let variants: MatrixVariant[] = [{ raw: base, choices: new Map() }];
  for (const [key, values] of checked) {
    variants = variants.flatMap((variant) =>
      values.map((value, i) => ({
        raw: withValue(variant.raw, key, value),
        choices: new Map([...variant.choices, [key, i]]),
      })),
    );
  }
  for (const variant of variants) {
    const labels = [...variant.choices].map(([key, i]) => valueLabel(checked.find(([k]) => k === key)![1][i]!, i));
    variant.raw.name = [base.name, ...labels].join('-');
  }
  return variants;
}

function checkMatrix(matrix: unknown, base: Raw): [string, Scalar[]][] | CampaignProblem {
  if (!isRecord(matrix) || Object.keys(matrix).length === 0) {
    return { path: ['matrix'], message: 'expected settings mapped to lists, e.g. matrix: {disk.fs: [ext4, xfs]}' };
  }
  const entries: [string, Scalar[]][] = [];
  for (const [key, values] of Object.entries(matrix)) {
    if (!MATRIX_KEYS.includes(key)) {
      return { path: ['matrix', key], message: `not a setting a matrix can vary; use one of ${MATRIX_KEYS.join(', ')}` };
    }
    if (!Array.isArray(values) || values.length === 0 || !values.every(isScalar)) {
      return { path: ['matrix', key], message: `${show(values)} is not a list of values; write e.g. [${exampleFor(key)}]` };
    }
    if (valueAt(base, key) !== undefined) {
      return { path: ['matrix', key], message: `${key} is also set in the scenario itself; set it in one place` };
    }
    entries.push([key, values]);
  }
  return entries;
}

function isScalar(value: unknown): value is Scalar {
  return ['string', 'number', 'boolean'].includes(typeof value);
}

function exampleFor(key: string): string {
  return key === 'disk.fs' ? 'ext4, xfs' : key === 'server.doublewrite' ? 'on, off' : 'a, b';
}

function valueAt(raw: Raw, key: string): unknown {
  const [head, leaf] = key.split('.') as [string, string | undefined];
  if (leaf === undefined) return raw[head];
  const section = raw[head];
  return isRecord(section) ? section[leaf] : undefined;
}

function withValue(raw: Raw, key: string, value: Scalar): Raw {
  const [head, leaf] = key.split('.') as [string, string | undefined];
  if (leaf === undefined) return { ...raw, [head]: value };
  const section = raw[head] ?? {};
  if (!isRecord(section)) return raw; // not a mapping: the scenario schema reports it
  return { ...raw, [head]: { ...section, [leaf]: value } };
}

/** A value as part of a scenario name: `on`/`off` for booleans, lower case, unsafe runs to '-'. */
function valueLabel(value: Scalar, index: number): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  const label = String(value).toLowerCase().replace(/[^a-z0-9._]+/g, '-').replace(/^-+|-+$/g, '');
  return label || `v${index + 1}`;
}
