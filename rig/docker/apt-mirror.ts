/**
 * The Debian mirror this host already uses, read from its apt sources at run time
 * (/etc/apt/sources.list one-line entries, /etc/apt/sources.list.d/*.list and deb822 *.sources).
 * The offline image build bootstraps from it; nothing of it is written into the project.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface AptEntry {
  uri: string;
  suites: string[];
  components: string[];
}

/** One-line format: `deb [opts] URI SUITE COMPONENT...` (deb-src and comments ignored). */
export function parseOneLineSources(text: string): AptEntry[] {
  const entries: AptEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').replace(/\[[^\]]*\]/, '').trim();
    const [type, uri, suite, ...components] = line.split(/\s+/);
    if (type === 'deb' && uri && suite) entries.push({ uri, suites: [suite], components });
  }
  return entries;
}

/** deb822 format: paragraphs of `Field: value` lines (Types, URIs, Suites, Components, Enabled). */
export function parseDeb822Sources(text: string): AptEntry[] {
  const entries: AptEntry[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of paragraph.split('\n')) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (match?.[1] && match[2] !== undefined) fields.set(match[1].toLowerCase(), match[2].trim());
    }
    const words = (name: string) => (fields.get(name) ?? '').split(/\s+/).filter(Boolean);
    if (!words('types').includes('deb') || fields.get('enabled') === 'no') continue;
    for (const uri of words('uris')) entries.push({ uri, suites: words('suites'), components: words('components') });
  }
  return entries;
}

export async function readAptSources(etcApt = '/etc/apt'): Promise<AptEntry[]> {
  const entries = parseOneLineSources(await readFile(join(etcApt, 'sources.list'), 'utf8').catch(() => ''));
  const dir = join(etcApt, 'sources.list.d');
  for (const name of (await readdir(dir).catch(() => [])).sort()) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    if (name.endsWith('.list')) entries.push(...parseOneLineSources(text));
    if (name.endsWith('.sources')) entries.push(...parseDeb822Sources(text));
  }
  return entries;
}

/** The mirror that serves `suite` itself (not -updates or -security) with `main`, or null. */
export function pickMirror(entries: AptEntry[], suite: string): string | null {
  const hit = entries.find((e) => e.suites.includes(suite) && e.components.includes('main'));
  return hit ? hit.uri.replace(/\/+$/, '') : null;
}

/** Suites with no -updates or -security of their own: unstable gets every fix as a new upload. */
const ROLLING_SUITES = new Set(['sid', 'unstable']);

/**
 * The entries for `suite` and its family (suite-updates, suite-security), as sources.list lines;
 * with `as`, the same lines for another suite (a Debian mirror serves every suite the same way).
 * A rolling `as` (sid) gets the suite's own lines only: sid-updates and sid-security do not exist.
 */
export function sourcesListFor(entries: AptEntry[], suite: string, as = suite): string {
  const lines: string[] = [];
  for (const entry of entries) {
    for (const s of entry.suites.filter((x) => x === suite || x.startsWith(`${suite}-`))) {
      if (s !== suite && ROLLING_SUITES.has(as)) continue;
      lines.push(`deb ${entry.uri} ${as}${s.slice(suite.length)} ${entry.components.join(' ')}`);
    }
  }
  return `${[...new Set(lines)].join('\n')}\n`;
}

/** The host's own Debian suite (VERSION_CODENAME in /etc/os-release), or null. */
export async function readHostSuite(osRelease = '/etc/os-release'): Promise<string | null> {
  const text = await readFile(osRelease, 'utf8').catch(() => '');
  return /^VERSION_CODENAME="?([a-z]+)"?$/m.exec(text)?.[1] ?? null;
}

export interface MirrorChoice {
  uri: string;
  sourcesList: string; // the image's /etc/apt/sources.list
}

/**
 * Where to bootstrap `suite` from: a mirror the host lists for it, else the host's own Debian
 * mirror (the one serving its own suite), since one Debian mirror serves every suite. The image's
 * sources.list repeats the host's entries of that family (-updates, -security) for `suite`.
 */
export function chooseMirror(entries: AptEntry[], suite: string, hostSuite: string | null): MirrorChoice | null {
  for (const family of [suite, hostSuite]) {
    const uri = family ? pickMirror(entries, family) : null;
    if (uri && family) return { uri, sourcesList: sourcesListFor(entries, family, suite) };
  }
  return null;
}
