/** What the recovery server process did: time to ready, how and where it ended, the shutdown. */
import type { CycleRecord, RecoveryRun } from '../../../rig/results/types.js';
import { formatMs } from '../../format.js';
import { html, type Html } from '../../html.js';

const STAGE_TEXT: Record<RecoveryRun['endedIn'], string> = {
  start: 'while starting (before it answered)',
  checks: 'during the checks',
  shutdown: 'at the clean shutdown',
};

function exitText(exit: RecoveryRun['exit']): string {
  if (!exit) return 'not seen by the rig';
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.exitCode}`;
}

export function serverRunBlock(cycle: CycleRecord): Html {
  const run = cycle.recovery;
  if (!run) return html`<p class="muted">Not recorded (the cycle did not reach recovery, or the record predates it).</p>`;
  const clean = run.shutdown === 'clean';
  const bound = run.timedOut === 'start' ? run.bounds.startMs : run.timedOut === 'checks' ? run.bounds.checksMs : null;
  return html`<dl class="kv">
<dt>ready after</dt><dd>${run.readyMs === null ? html`<b class="bad">never answered</b>` : formatMs(run.readyMs)}</dd>
<dt>ended</dt><dd>${clean ? STAGE_TEXT[run.endedIn] : html`<b class="bad">${STAGE_TEXT[run.endedIn]}</b>`}</dd>
<dt>exit</dt><dd class="mono">${exitText(run.exit)}</dd>
<dt>shutdown</dt><dd>${run.shutdown === 'failed' ? html`<b class="bad">failed</b>` : run.shutdown}</dd>
${run.timedOut ? html`<dt>bound passed</dt><dd><b class="bad">${run.timedOut}${bound === null ? '' : ` (${formatMs(bound)})`}; the rig killed the server</b></dd>` : null}
${run.checksError ? html`<dt>checks ended by</dt><dd class="mono">${run.checksError}</dd>` : null}
</dl>
${run.readyMs !== null && !clean ? html`<p class="sub">The pages are not scanned after this unclean end: pages the server rebuilt in memory may not have reached the disk.</p>` : null}`;
}
