/**
 * mapRangeToPages: which file pages a device byte range [offset, offset+length) touches, one hit
 * per (file, page, contiguous piece), each with the byte range inside the page.
 */
import type { ExtentMap, MappedFile } from './extent-map.js';

export interface PageHit {
  file: string;
  kind: MappedFile['kind'];
  /** Page number in the tablespace (slot in a doublewrite file); null for non-page files. */
  page: number | null;
  /** Bytes [pageOffset, pageOffset+length) of that page (of the file, when page is null). */
  pageOffset: number;
  length: number;
  deviceOffset: number;
  /** The extent is allocated but unwritten in this image: the filesystem reads it as zeros. */
  unwritten: boolean;
}

/** `pageSize` overrides the page size read from each tablespace (e.g. for a damaged page 0). */
export function mapRangeToPages(map: ExtentMap, offset: number, length: number, pageSize?: number): PageHit[] {
  const hits: PageHit[] = [];
  const end = offset + length;
  for (let i = firstCandidate(map, offset); i < map.byDevice.length; i++) {
    const extent = map.byDevice[i]!;
    if (extent.physical >= end) break;
    const from = Math.max(offset, extent.physical);
    const to = Math.min(end, extent.physical + extent.length);
    if (from >= to) continue;
    const fileFrom = extent.logical + (from - extent.physical);
    hits.push(...splitByPage(extent.file, fileFrom, to - from, from, extent.unwritten, pageSize));
  }
  return hits;
}

/** Index of the last extent starting at or before offset (extents never overlap on a device). */
function firstCandidate(map: ExtentMap, offset: number): number {
  let lo = 0;
  let hi = map.byDevice.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map.byDevice[mid]!.physical <= offset) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

function splitByPage(file: MappedFile, fileOffset: number, length: number, deviceOffset: number, unwritten: boolean, override?: number): PageHit[] {
  const ps = file.pageSize === null ? null : (override ?? file.pageSize);
  if (ps === null) return [{ file: file.rel, kind: file.kind, page: null, pageOffset: fileOffset, length, deviceOffset, unwritten }];
  const hits: PageHit[] = [];
  for (let at = fileOffset; at < fileOffset + length; ) {
    const pageEnd = (Math.floor(at / ps) + 1) * ps;
    const piece = Math.min(pageEnd, fileOffset + length) - at;
    hits.push({
      file: file.rel, kind: file.kind, page: file.firstPage + Math.floor(at / ps), pageOffset: at % ps,
      length: piece, deviceOffset: deviceOffset + (at - fileOffset), unwritten,
    });
    at += piece;
  }
  return hits;
}
