/**
 * The disk's errors. `code` means what it means for the rig's own errors (rig/errors.ts): bad input
 * is the user's (a setting the disk cannot take), a rig failure the disk's or the machine's. Bad
 * input names the setting by the disk's word for it; a caller that knows the user's word for it
 * (a command-line flag) says that instead, with `detail`.
 */
export type DiskSetting = 'dir' | 'sizeBytes' | 'fs' | 'atomicUnit' | 'pageSize' | 'journalMaxBytes' | 'trigger';

const SETTING_NAMES: Record<DiskSetting, string> = {
  dir: 'disk folder',
  sizeBytes: 'disk size',
  fs: 'filesystem',
  atomicUnit: 'atomic unit',
  pageSize: 'page size',
  journalMaxBytes: 'cache bound',
  trigger: 'trigger',
};

export class DiskError extends Error {
  readonly code: 'bad-input' | 'rig-failure';
  readonly setting: DiskSetting | null;
  readonly detail: string; // the message without the setting's name

  constructor(code: DiskError['code'], detail: string, options: { setting?: DiskSetting; cause?: unknown } = {}) {
    super(options.setting ? `${SETTING_NAMES[options.setting]}: ${detail}` : detail, { cause: options.cause });
    this.name = 'DiskError';
    this.code = code;
    this.setting = options.setting ?? null;
    this.detail = detail;
  }
}

/** A setting the disk cannot take (or an environment it cannot run in, with no setting): one line with the fix. */
export function diskBadInput(detail: string, setting?: DiskSetting): DiskError {
  return new DiskError('bad-input', detail, setting ? { setting } : {});
}

/** The disk, its helper or the machine failed. */
export function diskFailure(message: string, cause?: unknown): DiskError {
  return new DiskError('rig-failure', message, { cause });
}
