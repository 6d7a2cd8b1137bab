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
    const input = travelHarnessInput();
    input.skills.items[1]!.body += '\n- Make sure the fare class is known; do not guess it.';
    const base = parseHarness(input);
    const result = applied(await applyOperator(paraphraseLexicon, base, { rng: 'golden', severity: 1 }));
    expect(result.harness.skills.items[1]?.body).toBe(
      "- Use `get_baggage_policy` with the fare class.\n- State weights in kilograms.\n- Ensure the fare class is known; don't guess it.",
    );
    expect(result.harness.skills.items[0]?.body).toBe(
      base.skills.items[0]?.body.replace('before offering', 'prior to offering'),
    );
    expect(result.harness.skills.items.slice(2)).toEqual(base.skills.items.slice(2));
    expect(result.relabel.steps).toEqual([]);
  });

  it('leaves "never" as it is: no paraphrase of it reads right in every sentence', () => {
    // From a public SKILL.md (skill-creator): "do not ever from an empty folder" is no sentence.
    const text = 'Start from the template in the skill-creator directory, never from an empty folder.';
    expect(lexiconEdits(text, harness)).toEqual([]);
    expect(everySwap('Never promise a seat.')).toBe('Never promise a seat.');
  });

  it('swaps a phrase only where its paraphrase reads the same (an audit of certified rows)', () => {
    // Each of these read as another rule, or as no sentence, once swapped.
    for (const text of [
      'Keep it to one line per product at most.', // "… per product no more than."
      'Reply as soon as possible.', // "the moment possible"
      'Make sure to read back the order.', // "Ensure to read back"
      'Make sure of it.', // "Ensure of it"
      'Call the customer at least once.', // "no fewer than once"
      'Issue the refund only when the cancellation is confirmed.', // "only if": a time became a condition
      'Rather than put in fiddly changes, fix the cause.', // "Instead of put in": a bare verb (skill-creator)
      'Call the scripts rather than ingested into context.', // "instead of ingested" (webapp-testing)
    ])
      expect(lexiconEdits(text, harness), text).toEqual([]);
    expect(everySwap('Offer at most 3 coupons, at least two options, as soon as the order ships.')).toBe(
      'Offer no more than 3 coupons, no fewer than two options, the moment the order ships.',
    );
    expect(everySwap('Make sure the order is paid.')).toBe('Ensure the order is paid.');
    expect(everySwap('Ask rather than guessing, rather than the default.')).toBe(
      'Ask instead of guessing, instead of the default.',
    );
  });

  it('swaps both ways, keeps capitals and apostrophes', () => {
    expect(everySwap('Do not guess. Don’t round. Make sure it holds, e.g. twice; at most 2.')).toBe(
      "Don't guess. Do not round. Ensure it holds, for example twice; no more than 2.",
    );
    expect(everySwap('不要承诺，必须核对。')).toBe('切勿承诺，务必核对。');
  });

  // An audit on obra/superpowers: "Do NOT …" became "Don't …", and "Ensure an isolated workspace: use …"
  // became "Make sure an isolated workspace: use …".
  it('keeps emphasis in capitals, and makes "ensure" "make sure" only before "that"', () => {
    expect(everySwap('Do NOT guess. Do not round.')).toBe("Do NOT guess. Don't round.");
    expect(everySwap("## When You Don't Know\nDon't guess.")).toBe("## When You Don't Know\nDo not guess.");
    expect(everySwap('Ensure an isolated workspace. Ensure that tests pass.')).toBe(
      'Ensure an isolated workspace. Make sure that tests pass.',
    );
  });

  it('never touches numbers, quotes, code, identifiers or banned terms', () => {
    const input = bannedWinInput();
    input.tools.items[0]!.name = 'do_not_disturb';
    const guarded = parseHarness(input);
    const text =
      'Never say "never" or `never`, \'do not\' or 「不要」; make sure you win; do_not_disturb at most 48 hours for ¥199. Never.';
    expect(everySwap(text, guarded)).toBe(
      'Never say "never" or `never`, \'do not\' or 「不要」; make sure you win; do_not_disturb no more than 48 hours for ¥199. Never.',
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

  // All-Hands-AI/OpenHands @156d0686 (MIT), kubernetes skill: "Before you proceed" became "Prior to the moment
  // you proceed"; and str_replace_editor's "context before and after" must not become "prior to and after".
  it('makes "before" "prior to" only before a gerund', () => {
    expect(everySwap('IMPORTANT: Before you proceed with installation, make sure you have sudo access')).toBe(
      'IMPORTANT: Before you proceed with installation, ensure you have sudo access',
    );
    expect(
      everySwap('Include sufficient context before and after the change point (3-5 lines recommended)'),
    ).toBe('Include sufficient context before and after the change point (3-5 lines recommended)');
    expect(everySwap('Read the file before editing it, before something changes.')).toBe(
      'Read the file prior to editing it, before something changes.',
    );
  });
});
