/** The page verifier's API for the crash cycle and the CLI. */
export { verifyPage, type PageContext, type PageVerdict, type PageFault, type PageFaultKind } from './verify-page.js';
export { scanTablespace, type TablespaceScan, type InvalidPage, type ScanOptions } from './scan-tablespace.js';
export { scanDatadir, type DatadirScan } from './scan-datadir.js';
export { readDoublewrite, readUnwrittenDoublewrite } from './read-doublewrite.js';
export type { DoublewriteCopy } from './doublewrite-copies.js';
export { buildExtentMap, type ExtentMap, type MappedFile } from './extent-map.js';
export { mapRangeToPages, type PageHit } from './map-range.js';
export { decodeFspFlags, type SpaceFormat } from './fsp-flags.js';
export { readPageHeader, type PageHeader } from './page-format.js';
