/** One word for a POSIX shell, whatever it holds: single quotes, each `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
