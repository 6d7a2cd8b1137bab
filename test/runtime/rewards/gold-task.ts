// Test-local: derives the EpisodeTask of a gold fixture trajectory from its own messages and meta — skills =
// the skills loaded per turn, tools = the registry tools with a successful result per turn, blockedBy = the
// input hook whose block or fallback follows the user message. Written apart from the rewards' own turn
// splitting so that the fixture test checks one against the other.
import type { Harness } from '../../../src/harness/schema.js';
import type { EpisodeTask, TurnTask } from '../../../src/runtime/episode-task.js';
import type { Message, Trajectory } from '../../../src/trajectory/schema.js';

export function goldTask(trajectory: Trajectory, harness: Harness): EpisodeTask {
  const { tool: loader, argument } = harness.skills.loader;
  const inputHooks = new Set(
    harness.hooks.items.filter((hook) => hook.stage === 'input').map((hook) => hook.id),
  );
  const results = new Map<string, Extract<Message, { role: 'tool' }>>();
  for (const message of trajectory.messages)
    if (message.role === 'tool' && !results.has(message.tool_call_id))
      results.set(message.tool_call_id, message);
  const intents = Array.isArray(trajectory.meta?.intents) ? (trajectory.meta.intents as string[]) : [];
  const userCount = trajectory.messages.filter((message) => message.role === 'user' && !message.hsa).length;
  const turns: TurnTask[] = [];
  let turn: TurnTask | undefined;
  trajectory.messages.forEach((message, index) => {
    if (message.role === 'user' && !message.hsa) {
      turn = {
        user: message.content,
        intents: userCount === 1 ? intents : intents.slice(turns.length, turns.length + 1),
        skills: [],
        tools: [],
        facts: [],
      };
      const next = trajectory.messages[index + 1];
      if (
        next?.role === 'assistant' &&
        (next.hsa?.event === 'hook_blocked' || next.hsa?.event === 'hook_fallback') &&
        inputHooks.has(next.hsa.hook)
      )
        turn.blockedBy = next.hsa.hook;
      turns.push(turn);
      return;
    }
    if (!turn || message.role !== 'assistant') return;
    for (const call of message.tool_calls ?? []) {
      const result = results.get(call.id);
      if (!result || result.hsa) continue;
      if (call.function.name === loader) {
        const skill = (JSON.parse(call.function.arguments) as Record<string, string>)[argument];
        if (skill && !turn.skills.includes(skill)) turn.skills.push(skill);
        continue;
      }
      let failed = true;
      try {
        const value = JSON.parse(result.content) as unknown;
        failed = typeof value !== 'object' || value === null || 'error' in value;
      } catch {}
      if (!failed && !turn.tools.includes(call.function.name)) turn.tools.push(call.function.name);
    }
  });
  return { id: trajectory.id, turns };
}
