/** The handle for a disk some process already built, by the backend its record names. */
import type { DiskRecord } from './disk-record.js';
import { DmDisk } from './dm/dm-disk.js';
import { PowerFailDisk } from './power-fail-disk.js';

export function openDisk(record: DiskRecord): PowerFailDisk {
  return record.backend === 'dm' ? new DmDisk(record) : new PowerFailDisk(record);
}
