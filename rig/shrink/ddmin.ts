/**
 * Delta debugging (Zeller and Hildebrandt's ddmin) over a list of items: the smallest subset the
 * test still fails on, 1-minimal (taking away any one more item makes it pass). Subsets keep the
 * items' order. Each subset is tested once (a repeat comes from the memo). A bound on the tests,
 * or the signal, stops the search early with the smallest failing subset found so far, and says so.
 */
export interface Ddmin<T> {
  /** The smallest subset found that still fails (the input when nothing smaller did). */
  result: T[];
  /** Whether `result` is 1-minimal: every subset with one item fewer was tested and passed. */
  minimal: boolean;
  tests: number;
  stopped: 'bound' | 'signal' | null;
}

export interface DdminOptions<T> {
  maxTests?: number;
  signal?: AbortSignal;
  /** Called whenever a smaller failing subset is found. */
  onSmaller?: (subset: T[]) => void;
}

class Stop extends Error {
  constructor(readonly why: 'bound' | 'signal') {
    super(why);
  }
}

function chunks<T>(items: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < n; i++) out.push(items.slice(Math.floor((i * items.length) / n), Math.floor(((i + 1) * items.length) / n)));
  return out.filter((c) => c.length > 0);
}

/**
 * `fails(subset)`: whether the failure still shows with only these items. `items` itself must fail
 * and the empty subset must pass (the caller checks both: ddmin never tests them).
 */
export async function ddmin<T>(items: T[], fails: (subset: T[]) => Promise<boolean>, options: DdminOptions<T> = {}): Promise<Ddmin<T>> {
  const index = new Map(items.map((item, i) => [item, i]));
  const memo = new Map<string, boolean>();
  let tests = 0;
  let best = items;
  const test = async (subset: T[]): Promise<boolean> => {
    const key = subset.map((x) => index.get(x)).join(',');
    const known = memo.get(key);
    if (known !== undefined) return known;
    if (options.signal?.aborted) throw new Stop('signal');
    if (options.maxTests !== undefined && tests >= options.maxTests) throw new Stop('bound');
    tests += 1;
    const failed = await fails(subset);
    memo.set(key, failed);
    if (failed && subset.length < best.length) {
      best = subset;
      options.onSmaller?.(subset);
    }
    return failed;
  };
  let current = items;
  let n = 2;
  try {
    while (current.length > 1) {
      const parts = chunks(current, Math.min(n, current.length));
      const part = await firstFailing(parts, test);
      if (part) {
        current = part;
        n = 2;
        continue;
      }
      const complements = parts.length > 2 ? parts.map((_, i) => parts.filter((__, k) => k !== i).flat()) : [];
      const complement = await firstFailing(complements, test);
      if (complement) {
        current = complement;
        n = Math.max(n - 1, 2);
        continue;
      }
      if (n >= current.length) break;
      n = Math.min(current.length, 2 * n);
    }
    return { result: current, minimal: true, tests, stopped: null };
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { result: best, minimal: false, tests, stopped: error.why };
  }
}

async function firstFailing<T>(subsets: T[][], test: (s: T[]) => Promise<boolean>): Promise<T[] | null> {
  for (const s of subsets) if (await test(s)) return s;
  return null;
}
