/**
 * An error log as the lines the server meant to write. MySQL prints a page dump ("len 16384; hex
 * ...", one 32 KiB line) from one thread while another logs: a whole log line can land inside the
 * dump with no newline before its timestamp. Each physical line is cut where such a timestamp
 * starts, and the dump itself is dropped: it names no page, and its hex can spell anything. (The
 * dump's ascii part holds raw bytes, newlines included: its later lines stay, and match no rule.)
 */

export interface LogSegment {
  line: number; // 1-based physical line it came from
  text: string;
}

/** Where a MySQL log line starts inside another: "2026-11-30T14:31:51.045719Z 1 [ERROR] ...". */
const EMBEDDED_START = /(?<=\S)(?=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \d+ \[)/;

/** MySQL's buf_page_print: " len 16384; hex 0a1b...; asc ...;" (the ascii part may follow). */
const PAGE_DUMP = /^\s*len \d+; hex [0-9a-f]/;

export function isPageDump(text: string): boolean {
  return PAGE_DUMP.test(text);
}

export function logSegments(text: string): LogSegment[] {
  const segments: LogSegment[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    for (const part of raw.split(EMBEDDED_START)) {
      if (!isPageDump(part)) segments.push({ line: index + 1, text: part });
    }
  });
  return segments;
}
