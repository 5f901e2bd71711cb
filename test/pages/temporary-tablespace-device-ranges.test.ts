import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryTablespacePaths } from '../../rig/pages/temporary-tablespace-device-ranges.js';

t.test("the temporary tablespaces are ibtmp1 and MySQL's session .ibt files, nothing else", async (t) => {
  const dir = t.testdir({ ibdata1: 'x', ibtmp1: 'x', 'undo_001': 'x', test: { 'sbtest1.ibd': 'x' } });
  t.same(temporaryTablespacePaths(dir), [join(dir, 'ibtmp1')], 'MariaDB: ibtmp1 alone');
  mkdirSync(join(dir, '#innodb_temp'));
  for (const f of ['temp_1.ibt', 'temp_2.ibt', 'notes.txt']) writeFileSync(join(dir, '#innodb_temp', f), 'x');
  t.same(temporaryTablespacePaths(dir).sort(), [join(dir, '#innodb_temp', 'temp_1.ibt'), join(dir, '#innodb_temp', 'temp_2.ibt'), join(dir, 'ibtmp1')].sort());
});
