/**
 * A value as a person wrote it, checked: the value the disk uses, or the problem in one line that
 * ends with the fix. Problems name no setting: the caller says where the value came from (a
 * command-line flag, a campaign key).
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export const accept = <T>(value: T): Checked<T> => ({ ok: true, value });
export const reject = (problem: string): Checked<never> => ({ ok: false, problem });

/** `'12k'` for a string, `12288` for a number: the value as it was written (a line break as \n,
 * so the problem stays one line). */
export function show(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\r?\n/g, '\\n')}'` : JSON.stringify(value) ?? String(value);
}

/** ['a', 'b', 'c'] -> "a, b or c" */
export function oneOf(values: readonly string[]): string {
  return values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values.join('');
}
