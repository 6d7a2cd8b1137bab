// A law case on the travel harness whose trajectories exercise what the baggage example does not: nested
// object and array-item arguments, raw argument text with odd spacing, a call rejected by the
// `valid_arguments` hook and retried, and a reply that names a tool.

import { toChatCompletionTools } from '../../../src/harness/offered-tools.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import type { LawCase } from '../../../src/kit/laws.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import {
  baggageTrajectory,
  call,
  result,
  travelContext,
  travelHarness,
} from '../../support/travel-harness.js';

/** Fills the derived content (prompt, skill bodies, hook feedback); fails loudly if the draft is wrong. */
function derived(draft: Trajectory): Trajectory {
  const harness = travelHarness();
  const { trajectory, issues } = rederiveTrajectory(
    {
      ...draft,
      tools: toChatCompletionTools(harness),
      messages: [
        { role: 'system', content: renderSystemPrompt(harness, travelContext) },
        ...draft.messages.slice(1),
      ],
    },
    harness,
  );
  if (issues.length > 0)
    throw new Error(`flight case ${draft.id}: ${issues.map((issue) => issue.message).join('; ')}`);
  // Parsed form (schema key order, defaults), as law cases hold trajectories.
  return validateTrajectory(trajectory, harness).trajectory as Trajectory;
}

/** Rebooking with nested filters and passengers, spaced raw JSON, and a reply naming `find_flights`. */
export function rebookingTrajectory(): Trajectory {
  return derived({
    id: 'rebook-1',
    context: travelContext,
    messages: [
      { role: 'system', content: '' },
      { role: 'user', content: 'My flight was cancelled, can you rebook me to LIS tomorrow?' },
      call('load_skill', '{"skill_id": "rebooking"}', 'r1'),
      result('r1', ''),
      call(
        'find_flights',
        '{"origin":"OPO", "destination":"LIS","date":"2026-05-02","filters":{"max_stops":0,  "cabin":"economy"}}',
        'r2',
      ),
      result('r2', '[{"flight":"HA 310","departs":"09:40"}]'),
      call('hold_seat', '{ "flight": "HA 310", "passengers": [ {"name": "Ana Souza"} ] }', 'r3'),
      result('r3', '{"held": true, "minutes": 20}'),
      { role: 'assistant', content: 'Sorry! Seat held on HA 310 at 09:40 for 20 minutes (find_flights).' },
    ],
  });
}

/** A call missing `date` is rejected by `valid_arguments`, then retried with the date. */
export function retryTrajectory(): Trajectory {
  const rejected = call('find_flights', '{"origin":"OPO","destination":"FAO"}', 'x1');
  return derived({
    id: 'retry-1',
    context: travelContext,
    messages: [
      { role: 'system', content: '' },
      { role: 'user', content: 'Any flight to FAO on 2026-06-01?' },
      call('load_skill', '{"skill_id":"rebooking"}', 'x0'),
      result('x0', ''),
      { ...rejected, hsa: { event: 'hook_rejected', hook: 'valid_arguments' } },
      {
        role: 'tool',
        tool_call_id: 'x1',
        content: '',
        hsa: { event: 'hook_feedback', hook: 'valid_arguments' },
      },
      call('find_flights', '{"origin":"OPO","destination":"FAO","date":"2026-06-01"}', 'x2'),
      result('x2', '[]'),
      { role: 'assistant', content: 'No flights to FAO on 2026-06-01, sorry.' },
    ],
  });
}

/** The travel harness with the baggage, rebooking and retry trajectories. */
export function flightCase(): LawCase {
  return {
    name: 'travel-flights',
    harness: travelHarness(),
    trajectories: [baggageTrajectory(), rebookingTrajectory(), retryTrajectory()].map(derived),
  };
}
