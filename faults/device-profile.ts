/**
 * Device profiles: data files a user can copy and edit, each a DeviceModel with its sources cited
 * in comments (faults/profiles/*.yml). `--profile NAME|FILE` names a shipped profile or a file;
 * a problem is one line that ends with the fix.
 *
 *   cache: durable              # volatile | durable
 *   writeLatency: {min: 100us, p50: 180us, p99: 600us, max: 2ms}   # min and max required
 *   flushLatency: {min: 20us, max: 60us}
 *   iops: 50000                 # optional limits
 *   bandwidth: 350M             # bytes a second
 *   queueDepth: 32
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { accept, oneOf, reject, show, type Checked } from './checked.js';
import { CACHE_MODES, type DeviceModel, type LatencyPoint } from './device-model.js';
import { readSize } from './sizes.js';

export interface DeviceProfile {
  name: string; // the shipped name, or the file's name without .yml
  device: DeviceModel;
}

/** faults/profiles of this checkout, whether this module runs from source or from dist/. */
export function shippedProfilesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const faultsDir = basename(dirname(here)) === 'dist' ? join(here, '..', '..', 'faults') : here;
  return join(faultsDir, 'profiles');
}

export function shippedProfileNames(): string[] {
  return readdirSync(shippedProfilesDir()).filter((f) => f.endsWith('.yml')).map((f) => f.slice(0, -4)).sort();
}

const PERCENTILES: Record<string, number> = { min: 0, p50: 50, p90: 90, p99: 99, 'p99.9': 99.9, max: 100 };
const DURATION_US: Record<string, number> = { us: 1, ms: 1000, s: 1_000_000 };

/** Microseconds for '180us', '1.5ms', '2s', or null. */
export function readDuration(value: unknown): number | null {
  const m = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s)\s*$/.exec(value) : null;
  return m ? Number(m[1]) * DURATION_US[m[2]!]! : null;
}

const duration = z.unknown().transform((v, ctx) => {
  const us = readDuration(v);
  if (us === null) ctx.addIssue({ code: 'custom', message: `${show(v)} is not a duration; write it like 180us or 1.5ms` });
  return us ?? 0;
});

const latency = z
  .strictObject(Object.fromEntries(Object.keys(PERCENTILES).map((k) => [k, duration.optional()])), {
    error: (i) => (i.code === 'unrecognized_keys' ? `unknown percentile; use ${oneOf(Object.keys(PERCENTILES))}` : undefined),
  })
  .transform((byKey, ctx): LatencyPoint[] => {
    const points = Object.entries(PERCENTILES)
      .filter(([k]) => byKey[k] !== undefined)
      .map(([k, percent]) => ({ percent, us: byKey[k]! }));
    if (points[0]?.percent !== 0 || points.at(-1)?.percent !== 100) {
      ctx.addIssue({ code: 'custom', message: 'a latency needs min and max (and any of p50, p90, p99, p99.9 between)' });
    } else if (points.some((p, i) => i > 0 && p.us < points[i - 1]!.us)) {
      ctx.addIssue({ code: 'custom', message: 'latencies must not fall as the percentile rises; check the order of the values' });
    }
    return points;
  });

const bandwidth = z.unknown().transform((v, ctx) => {
  const bytes = readSize(v);
  if (bytes === null || bytes === 0) ctx.addIssue({ code: 'custom', message: `${show(v)} is not a size a second; write it like 350M` });
  return bytes ?? 0;
});

export const profileSchema = z.strictObject(
  {
    cache: z.enum(CACHE_MODES, { error: () => `cache is ${oneOf(CACHE_MODES)}` }),
    writeLatency: latency.optional(),
    flushLatency: latency.optional(),
    iops: z.number().int().min(1).max(100_000_000).optional(),
    bandwidth: bandwidth.optional(),
    queueDepth: z.number().int().min(1).max(4096).optional(),
  },
  { error: (i) => (i.code === 'unrecognized_keys' ? `unknown key; the keys are cache, writeLatency, flushLatency, iops, bandwidth, queueDepth` : undefined) },
);

/** A profile's text checked into a model; `file` names it in the problem. */
export function parseDeviceProfile(text: string, file: string): Checked<DeviceModel> {
  const doc = parseDocument(text);
  const yamlError = doc.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    const message = yamlError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return reject(`${at ? `${file}:${at.line}:${at.col}` : file}: ${message}; fix the YAML syntax there`);
  }
  const value: unknown = doc.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject(`${file}: not a mapping of settings; write at least 'cache: volatile' or 'cache: durable'`);
  const parsed = profileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join('.');
    return reject(`${file}: ${key ? `${key}: ` : ''}${issue.message}; see faults/profiles/local.yml for the format`);
  }
  const p = parsed.data;
  return accept({
    cache: p.cache,
    writeLatency: p.writeLatency ?? [],
    flushLatency: p.flushLatency ?? [],
    iops: p.iops ?? 0,
    bandwidthBytes: p.bandwidth ?? 0,
    queueDepth: p.queueDepth ?? 0,
  });
}

const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** A shipped profile by name (essd, local, nvme, pmem), or a profile file by path. */
export function readDeviceProfile(spec: unknown): Checked<DeviceProfile> {
  if (typeof spec !== 'string' || spec.trim() === '') return reject(`${show(spec)} is not a profile; name one (${oneOf(shippedProfileNames())}) or give a file path`);
  const byName = PROFILE_NAME.test(spec);
  const file = byName ? join(shippedProfilesDir(), `${spec}.yml`) : spec;
  if (byName && !existsSync(file)) return reject(`'${spec}' is not a shipped profile; use ${oneOf(shippedProfileNames())}, or a file path (copy one from faults/profiles/)`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return reject(`${spec}: cannot read the profile file (${(error as NodeJS.ErrnoException).code ?? error}); check the path`);
  }
  const device = parseDeviceProfile(text, byName ? `faults/profiles/${spec}.yml` : spec);
  return device.ok ? accept({ name: byName ? spec : basename(spec).replace(/\.ya?ml$/, ''), device: device.value }) : device;
}

/** A shipped profile the rig itself relies on (its default); a missing or broken one is a broken install. */
export function shippedProfile(name: string): DeviceProfile {
  const profile = readDeviceProfile(name);
  if (!profile.ok) throw new Error(`powercut-rig: the shipped device profile is broken: ${profile.problem}`);
  return profile.value;
}
