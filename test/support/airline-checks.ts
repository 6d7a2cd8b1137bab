// A confirmation policy written as a custom hook check, as a module for `hsa … --hook-checks`: a write
// tool may run only when the user's last message confirms it (τ-bench's airline rule "obtain explicit user
// confirmation (yes) before any action that updates the booking database").
import { z } from 'zod';
import { createHookCheckRegistry, defineHookCheck } from '../../src/harness/hook-checks.js';

export const userConfirmed = defineHookCheck({
  name: 'user_confirmed',
  stages: ['pre_tool'],
  variables: ['word'],
  params: z.object({ word: z.string().min(1).default('yes') }),
  run(step, params) {
    const last = step.userMessages?.at(-1) ?? '';
    return new RegExp(`\\b${params.word}\\b`, 'i').test(last)
      ? undefined
      : { reason: `the user has not said "${params.word}" to this change`, details: { word: params.word } };
  },
});

export const hookChecks = createHookCheckRegistry([userConfirmed]);
