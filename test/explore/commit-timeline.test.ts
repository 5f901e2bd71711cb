/**
 * CommitTimeline (rig/load/commit-timeline.ts) and the ledger's upper bound (rig/checks/ledger.ts):
 * the ledger a crash state is held to at a moment, from the commits' begin and ack times.
 */
import t from 'tap';
import { CommitTimeline } from '../../rig/load/commit-timeline.js';

t.test('the ledger at a moment: acknowledged before it, begun before it', async (t) => {
  const tl = new CommitTimeline();
  tl.join(1, 5, 100);
  tl.join(2, 0, 150);
  tl.begin(1, 6, 200);
  tl.ack(1, 6, 300);
  tl.begin(1, 7, 310);
  tl.begin(2, 1, 320);
  tl.ack(2, 1, 400);
  tl.ack(1, 7, 450);
  t.same(tl.at(50), { acked: new Map(), ackedCount: 0, begun: new Map() }, 'before anyone joined');
  t.same(tl.at(120), { acked: new Map([[1, 5]]), ackedCount: 0, begun: new Map([[1, 5]]) }, 'a joined client may hold only what it read back');
  t.same(tl.at(300), { acked: new Map([[1, 5], [2, 0]]), ackedCount: 0, begun: new Map([[1, 6], [2, 0]]) }, 'an ack at the very moment is not before it');
  t.same(tl.at(315), { acked: new Map([[1, 6], [2, 0]]), ackedCount: 1, begun: new Map([[1, 7], [2, 0]]) });
  t.same(tl.at(1000), { acked: new Map([[1, 7], [2, 1]]), ackedCount: 3, begun: new Map([[1, 7], [2, 1]]) });
  t.equal(tl.size, 3);
});
