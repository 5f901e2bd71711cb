import t from 'tap';
import { RigError, badInput, exitCodeOf, rigFailure } from '../rig/errors.js';

t.test('exit codes follow whose fault it was', async (t) => {
  t.equal(badInput('x').exitCode, 2);
  t.equal(rigFailure('x').exitCode, 3);
  t.equal(new RigError('finding', 'x').exitCode, 1);
  t.equal(exitCodeOf(new Error('plain')), 3);
  t.equal(exitCodeOf(badInput('x')), 2);
});
