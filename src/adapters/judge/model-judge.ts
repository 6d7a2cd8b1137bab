// A model-based judge: asks an OpenAI-compatible model to review a trajectory against its gold labels and
// answer with a JSON verdict. Combine it with `majorityVote({ judge, k })` for a k-judge vote; an answer that
// is not a verdict counts as "do not keep", never as a pass.
import type { ChatModel, ChatRequest } from '../../runtime/chat-model.js';
import type { Judge, JudgeVerdict } from '../../runtime/judge.js';
import type { Message } from '../../trajectory/schema.js';
import { jsonObjects } from './json-objects.js';

/**
 * Options of `modelJudge`: the model that reviews, the request settings it is called with, and its
 * instructions.
 */
export interface ModelJudgeOptions {
  /** The chat model asked for the verdict. */
  model: ChatModel;
  /** The request's settings (model name, temperature, …); the judge writes the messages itself. */
  request: Omit<ChatRequest, 'messages' | 'tools'>;
  /** Replaces the default review instructions. */
  instructions?: string;
  /** The judge's `name` (default `model`). */
  name?: string;
}

const defaultInstructions = [
  'You review one conversation of a customer-facing AI agent for a training set.',
  'Keep it only if every reply is correct and grounded in the tool results, follows the loaded skills, answers what the user asked, and makes no banned, absolute or unverifiable claim.',
  'Answer with one JSON object and nothing else: {"keep": true|false, "score": <number between 0 and 1>, "reasons": ["…"]}.',
].join('\n');

function transcript(messages: readonly Message[]): string {
  return messages
    .slice(1)
    .map((message) => {
      if (message.role === 'assistant' && message.tool_calls)
        return `assistant calls: ${message.tool_calls.map((call) => `${call.function.name}(${call.function.arguments})`).join(', ')}`;
      if (message.role === 'tool') return `tool result: ${message.content}`;
      const marker = 'hsa' in message && message.hsa ? ` [${message.hsa.event} ${message.hsa.hook}]` : '';
      return `${message.role}${marker}: ${message.content ?? ''}`;
    })
    .join('\n');
}

/**
 * Reads a model's verdict: the JSON object with a `keep` key in its answer (a `<think>` block and other
 * objects around it are ignored). No verdict, a verdict without a boolean `keep`, or two verdicts that
 * disagree are never kept.
 *
 * @example
 * parseVerdict('<think>…</think>{"keep": true, "score": 0.9, "reasons": []}').keep // true
 */
export function parseVerdict(text: string | null): JudgeVerdict {
  const refuse = (reason: string): JudgeVerdict => ({ keep: false, score: 0, reasons: [reason] });
  const { objects, unparsable } = text ? jsonObjects(text) : { objects: [], unparsable: false };
  const verdicts = objects.filter((object) => 'keep' in object);
  if (verdicts.length === 0)
    return refuse(
      objects.length > 0
        ? 'the verdict has no boolean "keep"'
        : unparsable
          ? 'the verdict is not valid JSON'
          : 'the judge gave no JSON verdict',
    );
  if (new Set(verdicts.map((verdict) => verdict.keep)).size > 1)
    return refuse('the judge gave two different verdicts');
  const found = { value: verdicts[0]! };
  {
    const value = found.value as { keep?: unknown; score?: unknown; reasons?: unknown };
    if (typeof value.keep !== 'boolean')
      return { keep: false, score: 0, reasons: ['the verdict has no boolean "keep"'] };
    const score =
      typeof value.score === 'number' && value.score >= 0 && value.score <= 1
        ? value.score
        : value.keep
          ? 1
          : 0;
    const reasons = Array.isArray(value.reasons)
      ? value.reasons.filter((reason): reason is string => typeof reason === 'string')
      : [];
    return { keep: value.keep, score, reasons };
  }
}

/**
 * A judge that asks a chat model to review a trajectory against its task's gold labels and reads the JSON
 * verdict with `parseVerdict`; an answer that holds no verdict is not kept.
 *
 * @example
 * const judge = majorityVote({ judge: modelJudge({ model, request: { model: 'qwen3-32b', temperature: 0.7 } }), k: 3 });
 */
export function modelJudge(options: ModelJudgeOptions): Judge {
  return {
    name: options.name ?? 'model',
    async judge(input, judgeOptions = {}) {
      const labels = input.task.turns.map(
        (turn, index) =>
          `turn ${index + 1}: intents ${turn.intents.join(', ') || '-'}; skills ${turn.skills.join(', ') || '-'}; tools ${turn.tools.join(', ') || '-'}${turn.blockedBy ? `; must be blocked by ${turn.blockedBy}` : ''}`,
      );
      const completion = await options.model.complete(
        {
          ...options.request,
          messages: [
            { role: 'system', content: options.instructions ?? defaultInstructions },
            {
              role: 'user',
              content: `Gold labels:\n${labels.join('\n')}\n\nConversation (the agent's system prompt omitted):\n${transcript(input.trajectory.messages)}`,
            },
          ],
        },
        judgeOptions.signal ? { signal: judgeOptions.signal } : {},
      );
      return parseVerdict(completion.choices[0]?.message.content ?? null);
    },
  };
}
