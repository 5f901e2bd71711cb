/** Where prepared images are cached between runs (RIG_CACHE overrides). */
export const CACHE_ROOT = process.env.RIG_CACHE ?? '/var/cache/powercut-rig/prepared';
