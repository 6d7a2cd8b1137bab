import { describe, expect, it } from 'vitest';
import { paraphraseModel } from '../../../perturbations/skill-content/paraphrase-model.js';
import {
  type AppliedOperator,
  applyOperator,
  type OperatorSkip,
  type RegenerateFunction,
  type RegenerateRequest,
} from '../../../src/augment/operator.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness } from '../../support/travel-harness.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
/** A deterministic stand-in for a model: swaps a few words, keeps everything else. */
const swapWords: RegenerateFunction = async ({ text }) =>
  text.replaceAll('Never', 'Do not ever').replaceAll(' the ', ' that ').replaceAll('Keep', 'Make');
/** A careless model: drops the first protected span it was told to keep. */
const dropSpan: RegenerateFunction = async ({ text, protectedSpans }) =>
  protectedSpans[0] === undefined ? `${text} Reworded.` : text.replaceAll(protectedSpans[0], 'it');

describe('skill-content/paraphrase-model', () => {
  it('obeys the operator laws (with a fake model)', async () => {
    await checkOperatorLaws(paraphraseModel, { cases: await lawCases(), regenerate: swapWords });
  });

  it('keeps the model’s paraphrase when protected spans, mentions and rules survive (golden)', async () => {
    const requests: RegenerateRequest[] = [];
    const recording: RegenerateFunction = (request) => {
      requests.push(request);
      return swapWords(request);
    };
    const result = applied(
      await applyOperator(paraphraseModel, harness, { rng: 'golden', severity: 1, regenerate: recording }),
    );
    expect(result.harness.skills.items.map((skill) => skill.body)).toEqual([
      '- Call `find_flights` before offering a flight.\n- Quote fares exactly as `find_flights` returns them.\n- Do not ever promise a seat before `hold_seat` succeeds.',
      '- Use `get_baggage_policy` with that fare class.\n- State weights in kilograms.',
      'Apologise once, then move to that fix. Pair it with rebooking.',
    ]);
    expect(result.relabel.steps).toEqual([]);
    expect(requests.map((request) => request.protectedSpans)).toEqual([
      ['`find_flights`', '`hold_seat`'],
      ['`get_baggage_policy`'],
      [],
    ]);
    expect(requests[0]).toMatchObject({
      operator: 'skill-content/paraphrase-model',
      text: harness.skills.items[0]!.body,
    });
  });

  it('refuses an answer that drops a protected span, and skips when every answer is refused', async () => {
    const partial = applied(
      await applyOperator(paraphraseModel, harness, {
        rng: 'golden',
        severity: 1,
        regenerate: async (request) =>
          request.protectedSpans.length > 0 ? dropSpan(request) : swapWords(request),
      }),
    );
    expect(partial.harness.skills.items.map((skill) => skill.body)).toEqual([
      harness.skills.items[0]!.body,
      harness.skills.items[1]!.body,
      'Apologise once, then move to that fix. Pair it with rebooking.',
    ]);
    const onlyFirst = await applyOperator(paraphraseModel, harness, {
      rng: 'golden',
      severity: 0.2,
      regenerate: dropSpan,
    });
    expect(onlyFirst).toMatchObject({ skip: expect.stringContaining('every paraphrase was refused') });
  });

  it('refuses an answer with another number of rules', async () => {
    const merged: RegenerateFunction = async ({ text }) => text.replaceAll('.\n- ', '; ');
    const result = await applyOperator(paraphraseModel, harness, {
      rng: 'golden',
      severity: 1,
      regenerate: merged,
    });
    expect(result).toMatchObject({ skip: expect.stringContaining('every paraphrase was refused') });
  });

  it('is skipped by applyOperator when no regenerate function is given', async () => {
    expect(await applyOperator(paraphraseModel, harness, { rng: 'x', severity: 1 })).toEqual({
      skip: 'operator "skill-content/paraphrase-model" regenerates text and needs a regenerate function (a model); none was given',
    });
  });

  it('returns the input unchanged at severity 0 without calling the model', async () => {
    let calls = 0;
    const counting: RegenerateFunction = async (request) => {
      calls++;
      return request.text;
    };
    const result = applied(
      await applyOperator(paraphraseModel, harness, { rng: 'zero', severity: 0, regenerate: counting }),
    );
    expect(result.harness).toBe(harness);
    expect(calls).toBe(0);
  });
});
