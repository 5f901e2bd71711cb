/** A torn page as the doublewrite rules (MariaDB's and MySQL's) look its copies up. */
import type { Page0Path } from '../results/types.js';

export interface PageIdentity {
  space: number | null;
  page: number;
  /** For page 0: how the server would find the copy (rig/cycle/page0-evidence.ts); 'none': it cannot. */
  page0Path?: Page0Path;
  /** For other pages: false when the file's page 0 is torn and cannot be restored. */
  fileOpens?: boolean;
}
