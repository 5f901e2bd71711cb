/**
 * Where the native helper is (RIG_HELPER overrides): faults/helper/pfdisk in the source tree, found
 * from this module whether it runs from source (faults/) or from the build (dist/faults/).
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const faultsDir = basename(dirname(here)) === 'dist' ? join(here, '..', '..', 'faults') : here;

export const HELPER_PATH = process.env.RIG_HELPER ?? join(faultsDir, 'helper', 'pfdisk');
