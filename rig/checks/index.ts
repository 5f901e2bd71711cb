/** Checks run on a recovered server: the ledger of acknowledged commits, data invariants and CHECK TABLE. */
export { verifyLedger, type AckedLedger, type ClientLedger, type LedgerCheck } from './ledger.js';
export { checkTables, type TablesCheck } from './tables.js';
export { checkInvariants, type InvariantsCheck, type InvariantsInput } from './invariants.js';
export { checkLifecycle, type LifecycleCheck } from './lifecycle.js';
