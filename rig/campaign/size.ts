/** Sizes in campaign files: the disk's own size syntax (faults/sizes.ts), as nullable parses. */
export { readSize as parseSize, formatSize, showSize } from '../../faults/sizes.js';
