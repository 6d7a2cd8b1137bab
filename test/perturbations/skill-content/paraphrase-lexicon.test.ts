import { describe, expect, it } from 'vitest';
import { lexiconEdits, paraphraseLexicon } from '../../../perturbations/skill-content/paraphrase-lexicon.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { applyEdits } from '../../../src/trajectory/raw-json.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const everySwap = (text: string, on = harness) => applyEdits(text, lexiconEdits(text, on));
/** The travel harness's input with a hook that bans "make sure you win". */
function bannedWinInput() {
  const input = travelHarnessInput();
  input.hooks.items.push({
    id: 'no_win',
    stage: 'pre_reply',
    check: { type: 'banned_terms', terms: ['make sure you win'] },
    onFail: { action: 'block' },
  });
  return input;
}

describe('skill-content/paraphrase-lexicon', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(paraphraseLexicon, { cases: await lawCases() });
  });

  it('paraphrases connectives and boilerplate of a share of the bodies (golden)', async () => {
    const result = applied(await applyOperator(paraphraseLexicon, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items[0]?.body).toBe(
      '- Call `find_flights` before offering a flight.\n- Quote fares exactly as `find_flights` returns them.\n- Do not ever promise a seat before `hold_seat` succeeds.',
    );
    expect(result.harness.skills.items.slice(1)).toEqual(harness.skills.items.slice(1));
    expect(result.relabel.steps).toEqual([]);
  });

  it('swaps both ways, keeps capitals and apostrophes', () => {
    expect(everySwap('Do not guess. Don’t round. Make sure of it, e.g. twice; never at most.')).toBe(
      "Don't guess. Do not round. Ensure of it, for example twice; do not ever no more than.",
    );
    expect(everySwap('不要承诺，必须核对。')).toBe('切勿承诺，务必核对。');
  });

  it('never touches numbers, quotes, code, identifiers or banned terms', () => {
    const input = bannedWinInput();
    input.tools.items[0]!.name = 'do_not_disturb';
    const guarded = parseHarness(input);
    const text =
      'Never say "never" or `never`, \'do not\' or 「不要」; make sure you win; do_not_disturb at most 48 hours for ¥199. Never.';
    expect(everySwap(text, guarded)).toBe(
      'Do not ever say "never" or `never`, \'do not\' or 「不要」; make sure you win; do_not_disturb no more than 48 hours for ¥199. Do not ever.',
    );
  });

  it('reads the protected spans of each harness, on a text it has matched before', () => {
    // The lexicon's matches are found once per text; which of them a harness protects is its own.
    const text = 'Make sure you win, at most twice.';
    expect(everySwap(text)).toBe('Ensure you win, no more than twice.');
    const input = bannedWinInput();
    expect(everySwap(text, parseHarness(input))).toBe('Make sure you win, no more than twice.');
    expect(everySwap(text)).toBe('Ensure you win, no more than twice.');
  });

  it('skips when no body holds a lexicon phrase outside protected spans', async () => {
    const input = travelHarnessInput();
    input.skills.items = [{ ...input.skills.items[0]!, body: '- Quote "never" and `do not` exactly.' }];
    expect(await applyOperator(paraphraseLexicon, parseHarness(input), { rng: 'x' })).toEqual({
      skip: 'no skill body holds a lexicon phrase outside protected spans',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(paraphraseLexicon, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });
});
