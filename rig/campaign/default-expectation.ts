/**
 * The expectation a scenario has when it names none (DESIGN.md, "The oracle"): doublewrite on
 * recovers; doublewrite off with an atomic unit that covers a page never tears; doublewrite off
 * with a smaller unit is the negative control that must reproduce torn pages.
 */
import type { DiskSettings, Expectation, ServerSettings } from '../results/types.js';

export function defaultExpectation(server: ServerSettings, disk: DiskSettings): Expectation {
  if (server.doublewrite) return 'recovers';
  return disk.atomicUnit >= server.pageSize ? 'never-torn' : 'torn-reproduced';
}
