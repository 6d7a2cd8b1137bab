// The input-hook turns: spam and over-long messages that an input hook stops before the model.
import type { TurnSpec } from '../kit.js';

export function spamTurn(text: string): TurnSpec {
  return {
    viewer: text,
    intents: ['spam'],
    skills: [],
    steps: [],
    compose: () => ({ candidates: [] }),
    expectInput: 'input_spam_filter',
  };
}

export function longTurn(text: string): TurnSpec {
  return {
    viewer: text,
    intents: ['over_long'],
    skills: [],
    steps: [],
    compose: () => ({ candidates: [] }),
    expectInput: 'input_length_limit',
  };
}
