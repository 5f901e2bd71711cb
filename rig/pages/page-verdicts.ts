/**
 * Page verdicts remembered by content. verifyPage is a function of a page's bytes and its context
 * (format, page number, space id) alone, so a page whose bytes and context equal those of the page
 * last verified at the same place gets that verdict again without its checksum being computed: a
 * byte comparison instead of a CRC. Explore judges many crash images of one recording that differ
 * in a few pages, each scanned before and after its recovery; all but those pages are verified
 * once. Memory: one copy of each page seen (the datadir's live pages).
 */
import type { SpaceFormat } from './fsp-flags.js';
import { verifyPage, type PageContext, type PageVerdict } from './verify-page.js';

interface Remembered {
  bytes: Buffer;
  format: SpaceFormat;
  spaceId: number | null;
  verdict: PageVerdict;
}

const sameFormat = (a: SpaceFormat, b: SpaceFormat) => a.pageSize === b.pageSize && a.fullCrc32 === b.fullCrc32 && a.zipSize === b.zipSize;

export class PageVerdicts {
  private readonly seen = new Map<string, (Remembered | undefined)[]>(); // by file, then page number
  hits = 0;
  misses = 0;

  /** verifyPage's verdict on `page` at `file`:`ctx.pageNo`, computed only when the bytes or context are new. */
  verify(file: string, page: Buffer, ctx: PageContext & { pageNo: number }): PageVerdict {
    return this.verifyIn(file, page, 0, page.length, ctx);
  }

  /**
   * The same for the page at `source[at, at + size)`: a scan's chunk is compared in place, and a
   * view of the page is made only for a page not seen before (a view per page cost more than the
   * comparison).
   */
  verifyIn(file: string, source: Buffer, at: number, size: number, ctx: PageContext & { pageNo: number }): PageVerdict {
    let pages = this.seen.get(file);
    if (!pages) this.seen.set(file, (pages = []));
    const known = pages[ctx.pageNo];
    if (known && known.spaceId === ctx.spaceId && sameFormat(known.format, ctx.format) && known.bytes.length === size && source.compare(known.bytes, 0, size, at, at + size) === 0) {
      this.hits++;
      return known.verdict;
    }
    this.misses++;
    const page = at === 0 && size === source.length ? source : source.subarray(at, at + size);
    const verdict = verifyPage(page, ctx);
    if (known && known.bytes.length === size) {
      page.copy(known.bytes);
      Object.assign(known, { format: ctx.format, spaceId: ctx.spaceId, verdict });
    } else {
      pages[ctx.pageNo] = { bytes: Buffer.from(page), format: ctx.format, spaceId: ctx.spaceId, verdict };
    }
    return verdict;
  }
}
