/**
 * Reads a campaign's results.json (from its folder, or the file itself) and checks the parts a
 * merge relies on. Anything else in the file is kept as it is.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { badInput } from '../errors.js';
import type { CampaignResults } from './types.js';

const shape = z.looseObject({
  version: z.literal(1),
  campaign: z.string(),
  file: z.string(),
  seed: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  shard: z.object({ index: z.number().int(), count: z.number().int() }).nullable(),
  scenarios: z.array(z.looseObject({ name: z.string(), settings: z.looseObject({ expect: z.string() }), cyclesPlanned: z.number().int() })),
  cycles: z.array(z.looseObject({ id: z.string(), scenario: z.string(), cycle: z.number().int(), seed: z.number(), verdict: z.string(), tornPagesBefore: z.array(z.unknown()), evidenceDir: z.string().nullable() })),
});

export interface LoadedResults {
  dir: string; // the folder the results.json is in
  path: string;
  results: CampaignResults;
}

export async function loadResults(dirOrFile: string): Promise<LoadedResults> {
  const isDir = (await stat(dirOrFile).catch(() => null))?.isDirectory() ?? false;
  const path = isDir ? join(dirOrFile, 'results.json') : dirOrFile;
  const dir = isDir ? dirOrFile : join(dirOrFile, '..');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw badInput(`${path}: cannot read campaign results (${why}); give a folder a campaign wrote, holding results.json`, error);
  }
  const checked = shape.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw badInput(`${path}: not a campaign's results (${issue.path.join('.') || 'top level'}: ${issue.message}); give a folder a campaign wrote`);
  }
  return { dir, path, results: data as CampaignResults };
}
