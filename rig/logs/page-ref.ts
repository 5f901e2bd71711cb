/** The page a log line names, as far as the line says: any of space id, page number, file. */
export interface PageRef {
  space?: number;
  page?: number;
  file?: string;
}

// "[page id: space=5, page number=223]" (MariaDB and MySQL alike)
const PAGE_ID = /\[page id: space=(\d+), page number=(\d+)\]/;
// "corrupted page 1 in file ...", "failed to read page 1 from ...", MySQL's "page_num: 41"
const PAGE_NO = /\bpage(?: |_num: )(\d+)\b/i;
// MariaDB: "The first page of file ./db/t.ibd is corrupted", "Unable to read first page of file
// .//undo001" (11.8) name page 0
const FIRST_PAGE = /\bfirst page of file\b/i;
// "Space ID: 0" / "space 12" / MySQL 9.7's "Tablespace '4' mentioned in the redo log", "space_id: 6"
const SPACE_ID = /\b(?:space(?: ID:)? ?|space_id: |Tablespace ')(\d+)\b/i;
// a tablespace or doublewrite file: ./db/t.ibd, './ibdata1', ./undo_001, ./#ib_16384_0.dblwr
const TABLESPACE_FILE =
  /(?<![\w.#@$/-])(?:[\w.#@$-]*\/)*(?:[\w#@$-]+\.(?:ibd|ibu|ibt|dblwr)|ibdata\d+|undo_?\d+|ibtmp\d+)\b/;

/** Extracts the page a line names; fields the line does not name stay absent. */
export function extractPageRef(text: string): PageRef {
  const ref: PageRef = {};
  const id = PAGE_ID.exec(text);
  if (id) {
    ref.space = Number(id[1]);
    ref.page = Number(id[2]);
  } else {
    const page = PAGE_NO.exec(text);
    if (page) ref.page = Number(page[1]);
    else if (FIRST_PAGE.test(text)) ref.page = 0;
    const space = SPACE_ID.exec(text);
    if (space) ref.space = Number(space[1]);
  }
  const file = TABLESPACE_FILE.exec(text);
  if (file) ref.file = file[0].replace(/\/{2,}/g, '/'); // MariaDB 11.8 writes undo files as './/undo002'
  return ref;
}
