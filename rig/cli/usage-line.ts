/**
 * commander's own usage errors (a missing argument, an unknown option or command, a value not among
 * the choices) as the rig writes any bad input: one line, `rig: ` and what was wrong, then where to
 * look. commander hands them over as `error: ...\n`.
 */
export function usageLine(message: string, command: string | undefined): string {
  const what = message.trim().replace(/^error: /, '').replace(/\.$/, '');
  return `rig: ${what}; see rig${command ? ` ${command}` : ''} --help\n`;
}
