/** What the redo parser (./redo-file-ops.ts) finds in a MariaDB 10.8+ log's records. */

/** What a FILE_* record does to a tablespace's file (FILE_CREATE, FILE_DELETE, FILE_RENAME, FILE_MODIFY). */
export type FileOpKind = 'create' | 'delete' | 'rename' | 'modify';

export interface RedoFileOp {
  lsn: number; // the LSN of the mini-transaction that holds it
  op: FileOpKind;
  space: number;
  name: string;
  newName?: string; // a rename's new name
}

/** A WRITE record to page 0 of a tablespace that covers the space header's size or flags. */
export interface Page0HeaderWrite {
  lsn: number; // the LSN of the mini-transaction that holds it
  space: number;
  size: number | null; // the FSP_SIZE it writes (pages); null: it does not cover FSP_SIZE
  flags: number | null; // the FSP_SPACE_FLAGS it writes; null: it does not cover them
}
