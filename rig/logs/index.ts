export { classifyErrorLog, classifyLine } from './classify-error-log.js';
export { summarizeLog, type LogSummary } from './summarize-log.js';
export { excerptErrorLog } from './excerpt-error-log.js';
export { extractPageRef, type PageRef } from './page-ref.js';
export { LOG_RULES, isNoiseLine, type LogRule } from './log-patterns.js';
export { isPageDump, logSegments, type LogSegment } from './log-segments.js';
