/**
 * mode: explore in campaign files and `rig explore`'s flags: the defaults it takes, and the
 * settings it refuses before anything runs, each with the key and the fix.
 */
import t from 'tap';
import { parseCampaign } from '../../rig/campaign/load-campaign.js';
import { recordsPlanned, planCycles } from '../../rig/campaign/plan-cycles.js';
import { scenarioFromFlags } from '../../rig/cli/cycle-scenario.js';
import { DEFAULT_DISK, DEFAULT_EXPLORE } from '../../rig/defaults.js';

const parse = (text: string) => parseCampaign(text, 'c.yml', {});

t.test('an explore scenario takes 50 targeted states and a timed cut unless it names them', async (t) => {
  const c = parse(`name: c
scenarios:
  - {name: a, mode: explore}
  - {name: b, mode: explore, states: 7, pick: every, disk: {trigger: armed 16}}
  - {name: c}
`);
  t.same(c.scenarios.map((s) => [s.settings.explore, s.settings.disk.trigger]), [
    [DEFAULT_EXPLORE, { kind: 'at-time', ms: 5000 }],
    [{ states: 7, pick: 'every' }, { kind: 'armed', pendingPageWrites: 16 }],
    [undefined, DEFAULT_DISK.trigger],
  ]);
  t.equal(recordsPlanned(c, planCycles(c)), 3 * 50 + 3 * 7 + 3, 'a run plans states per explore cycle, one record per live cycle');
});

t.test('explore keys in defaults reach every explore scenario, and mode: live there turns them off', async (t) => {
  const c = parse(`name: c
defaults: {mode: explore, states: 9, pick: sample}
scenarios:
  - {name: a}
  - {name: b, mode: live}
`);
  t.same(c.scenarios.map((s) => s.settings.explore), [{ states: 9, pick: 'sample' }, undefined]);
});

t.test('what explore refuses, with the key and the fix', async (t) => {
  const refused = (text: string) => {
    try {
      parse(text);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };
  t.match(refused('name: c\nscenarios:\n  - {name: a, states: 5}\n'), /scenarios\[0\]\.states: states is for explore mode; add mode: explore, or remove states/);
  t.match(refused('name: c\nscenarios:\n  - {name: a, pick: every}\n'), /pick is for explore mode/);
  t.match(refused('name: c\nscenarios:\n  - {name: a, mode: explore, pick: best}\n'), /pick/);
  t.match(refused('name: c\nscenarios:\n  - {name: a, mode: explore, states: 0}\n'), /states/);
  t.match(refused('name: c\nscenarios:\n  - {name: a, mode: explore, load: {mix: "write-only,churn"}}\n'), /load\.mix: explore checks the write-only ledger at each barrier.*churn.*mode: live/);
  t.match(refused('name: c\nscenarios:\n  - {name: a, mode: sometimes}\n'), /mode/);
});

t.test('rig explore: the cycle flags and --states, --pick, as a one-scenario explore campaign', async (t) => {
  const { scenario, seed } = scenarioFromFlags({ states: '12', pick: 'sample', doublewrite: 'off', seed: '4' }, 'explore');
  t.same([scenario.settings.name, scenario.settings.explore, scenario.settings.server.doublewrite, seed, scenario.cycles], ['explore', { states: 12, pick: 'sample' }, false, 4, 1]);
  t.throws(() => scenarioFromFlags({ pick: 'all' }, 'explore'), /--pick/);
  t.throws(() => scenarioFromFlags({ states: 'many' }, 'explore'), /--states/);
  t.throws(() => scenarioFromFlags({ mix: 'write-only,alter' }, 'explore'), /--mix: explore checks the write-only ledger/);
});
