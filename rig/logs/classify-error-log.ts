import type { LogEvent, LogEventKind } from '../results/types.js';
import { LOG_RULES } from './log-patterns.js';
import { logSegments } from './log-segments.js';
import { extractPageRef } from './page-ref.js';

/** The kind of one error-log line, or null when the line is not worth an event. */
export function classifyLine(text: string): LogEventKind | null {
  for (const rule of LOG_RULES) {
    if (rule.pattern.test(text)) return rule.kind;
  }
  return null;
}

/**
 * Classifies a MariaDB or MySQL error log line by line (each line the server meant to write:
 * rig/logs/log-segments.ts): corruption, doublewrite restores,
 * LSN-in-the-future, aborts, recovery start/done, readiness and other [ERROR] lines, each
 * with the page it names where it names one. Extra evidence only: a server can restore
 * torn pages without a line, and name intact pages as corrupt after an aborted recovery.
 */
export function classifyErrorLog(text: string): LogEvent[] {
  const events: LogEvent[] = [];
  for (const segment of logSegments(text)) {
    const kind = classifyLine(segment.text);
    if (kind === null) continue;
    const line = segment.text.trimEnd();
    events.push({ line: segment.line, kind, text: line, ...extractPageRef(line) });
  }
  return events;
}
