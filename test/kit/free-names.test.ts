// nameChecker: a new identifier is free only when no harness text, trajectory text or earlier pick holds it.
// The harness's side is read once per harness object; each checker still answers for its own trajectory and
// its own picks.
import { describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { nameChecker } from '../../src/kit/index.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const withText = (content: string): Trajectory =>
  ({ id: 't', messages: [{ role: 'user', content }] }) as unknown as Trajectory;

describe('nameChecker', () => {
  it('refuses a defined name (in any case), a word of a harness text and a name already handed out', () => {
    const tool = harness.tools.items[0]?.name as string;
    const isFree = nameChecker(harness);
    expect(isFree(tool)).toBe(false);
    expect(isFree(tool.toUpperCase())).toBe(false);
    const word = (harness.tools.items[0]?.description ?? '').match(/\b[a-z]{5,}\b/)?.[0] as string;
    expect(word).toBeDefined();
    expect(isFree(word)).toBe(false);
    expect(isFree('zq_fresh_name')).toBe(true);
    expect(isFree('zq_fresh_name')).toBe(false);
  });

  it('reads each trajectory on its own, and each checker keeps its own picks', () => {
    const first = nameChecker(harness, withText('please call zq_taken_word now'));
    expect(first('zq_taken_word')).toBe(false);
    expect(first('zq_other')).toBe(true);
    // Another checker on the same harness object: the first one's trajectory and picks are not its own.
    const second = nameChecker(harness, withText('nothing here'));
    expect(second('zq_taken_word')).toBe(true);
    expect(second('zq_other')).toBe(true);
    expect(nameChecker(harness)('zq_taken_word')).toBe(true);
  });

  it('takes a name the trajectory writes as a word, as the symbol table reads words', () => {
    // Read a UTF-16 unit at a time (as mentions are found), `𝐀the-zqb` holds the word `the-zqb`: the name
    // is taken whichever other texts the index reads.
    expect(nameChecker(harness, withText('\u{1D400}the-zqb'))('the-zqb')).toBe(false);
    expect(nameChecker(harness, withText('athe-zqb'))('the-zqb')).toBe(true);
  });
});
