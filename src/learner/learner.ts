// A trained learner deciding the next assistant message, and the ChatModel around it. The learner reads
// what any model is sent — the messages so far and the `tools` array — and writes names through its
// pointer-generator: a tool name, argument keys and enum values, each generated from its training
// vocabulary or copied from what is offered. It does not write prose: a reply is the fixed text
// `learnerReplyText`. Argument values follow `argumentFiller`'s rule.
import type { Random } from '../augment/random.js';
import type { ChatCompletion, ChatModel, ChatRequest } from '../runtime/chat-model.js';
import { argumentFiller } from './argument-values.js';
import {
  type ArgumentKind,
  type Choose,
  conversationOf,
  type DecisionFeatures,
  decisionsOf,
  endName,
  type ReadMessage,
  type ReadTool,
  type WrittenCall,
  walkMessage,
} from './decisions.js';
import type { DecisionOutput, PointerGenerator } from './pointer-generator.js';
import { FeatureCache } from './text-features.js';

/** The text of every reply a learner writes (it chooses, it does not write prose). */
export const learnerReplyText = 'OK';

/** What decides the next assistant message from the messages and the offered tools. */
export interface MessageDecider {
  decide(
    messages: readonly ReadMessage[],
    tools: readonly ReadTool[],
  ): { reply: boolean; calls: WrittenCall[] };
}

/** One decision as the learner saw it, for inspection (`Learner.trace`). */
export interface DecisionTrace {
  slot: DecisionFeatures['slot'];
  offered: string[];
  chosen: string;
  gate: number;
  /** Whether the chosen name was offered (copyable) and whether it is in the training vocabulary. */
  offeredChosen: boolean;
  generatedChosen: boolean;
}

function pick(output: DecisionOutput, exclude: readonly string[]): string {
  let best: { name: string; probability: number } | undefined;
  for (const entry of output.names) {
    if (exclude.includes(entry.name)) continue;
    if (!best || entry.probability > best.probability) best = entry;
  }
  return best?.name ?? endName;
}

/**
 * A trained pointer-generator with what it learned about argument kinds.
 *
 * @example
 * const { learner } = await trainLearner('exports/trl/train.jsonl', { seed: 1 });
 * learner.decide(request.messages, request.tools) // { reply: false, calls: [{ name: 'load_skill', arguments: { skill_id: 'item_qa' } }] }
 */
export class Learner implements MessageDecider {
  /**
   * @param cache Features recur across decisions and rows (a system prompt, a skill body): computed once
   *   each. Learners that answer the same rows may share one.
   */
  constructor(
    readonly model: PointerGenerator,
    private readonly kinds: ReadonlyMap<string, ArgumentKind>,
    private readonly cache: FeatureCache = new FeatureCache(),
  ) {}

  /** The next assistant message: a reply, or the calls it makes. */
  decide(
    messages: readonly ReadMessage[],
    tools: readonly ReadTool[],
  ): { reply: boolean; calls: WrittenCall[] } {
    return this.trace(messages, tools).message;
  }

  /** The next assistant message with every decision behind it. */
  trace(
    messages: readonly ReadMessage[],
    tools: readonly ReadTool[],
  ): { message: { reply: boolean; calls: WrittenCall[] }; decisions: DecisionTrace[] } {
    const decisions: DecisionTrace[] = [];
    const choose: Choose = (features, _target, exclude) => {
      const output = this.model.predict(features);
      const chosen = pick(output, exclude);
      decisions.push({
        slot: features.slot,
        offered: features.candidates.map((candidate) => candidate.name),
        chosen,
        gate: output.gate,
        offeredChosen: features.candidates.some((candidate) => candidate.name === chosen),
        generatedChosen: this.model.vocabulary(features.slot).includes(chosen),
      });
      return chosen;
    };
    const conversation = conversationOf(messages);
    const fill = argumentFiller(conversation);
    const message = walkMessage(conversation, tools, undefined, {
      choose,
      fill: (schema, key) => fill(schema, key),
      kindOfKey: (key) => this.kinds.get(key) ?? 'scalar',
      cache: this.cache,
    });
    return { message, decisions };
  }
}

/**
 * The baseline: the same walk, each name drawn uniformly from what is offered at that decision (a value
 * with nothing offered ends the object).
 *
 * @example
 * const baseline = uniformChooser(createRandom('0/uniform'));
 */
export function uniformChooser(random: Random): MessageDecider {
  let calls = 0;
  return {
    decide(messages, tools) {
      const draw = random.fork(`decide${calls++}`);
      let draws = 0;
      const conversation = conversationOf(messages);
      const fill = argumentFiller(conversation);
      return walkMessage(conversation, tools, undefined, {
        choose: (features, _target, exclude) => {
          const names = features.candidates
            .map((candidate) => candidate.name)
            .filter((name) => !exclude.includes(name));
          return names.length === 0 ? endName : draw.fork(draws++).pick(names);
        },
        fill: (schema, key) => fill(schema, key),
        kindOfKey: () => 'scalar',
        namesOnly: true,
      });
    },
  };
}

/**
 * A ChatModel around a learner (or any `MessageDecider`): it answers Chat Completions requests, so that it
 * plays episodes through the runtime and answers bench rows like any model.
 *
 * @example
 * const run = await runAgent({ harness, tools, model: learnerChatModel(learner), userMessages: ['link 4 price?'] });
 */
export function learnerChatModel(decider: MessageDecider, name = 'hsa-learner'): ChatModel {
  return {
    async complete(request: ChatRequest): Promise<ChatCompletion> {
      const tools = (request.tools ?? []) as ReadTool[];
      const decided = decider.decide(request.messages as ReadMessage[], tools);
      const position = request.messages.length;
      const message =
        decided.reply || decided.calls.length === 0
          ? { role: 'assistant' as const, content: learnerReplyText }
          : {
              role: 'assistant' as const,
              content: null,
              tool_calls: decided.calls.map((call, index) => ({
                id: `call_${position}_${index}`,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            };
      return {
        id: `${name}-${position}`,
        object: 'chat.completion',
        created: 0,
        model: name,
        choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
      };
    },
  };
}

/** Teacher-forced decision accuracy: the share of decisions where the pick is the name the example wrote. */
export interface DecisionAccuracy {
  decisions: number;
  /** Share right, over every decision and per slot. */
  all: number;
  bySlot: Record<DecisionFeatures['slot'], { decisions: number; accuracy: number }>;
}

/**
 * Teacher-forced accuracy over conversations (each followed as written, decision by decision): the learner's
 * pick against the name written, and what a uniform choice among the offered names would score (its
 * expectation, 1 / candidates per decision).
 *
 * @example
 * decisionAccuracy(learner, items.map((item) => item.gold)).learner.all // 0.71
 */
export function decisionAccuracy(
  learner: Learner,
  conversations: ReadonlyArray<{ messages: readonly ReadMessage[]; tools?: readonly ReadTool[] }>,
  cache: FeatureCache = new FeatureCache(),
): { learner: DecisionAccuracy; uniform: DecisionAccuracy } {
  const slotNames = ['action', 'key', 'value'] as const;
  const tally = () => Object.fromEntries(slotNames.map((slot) => [slot, { decisions: 0, right: 0 }]));
  const mine = tally();
  const uniform = tally();
  for (const conversation of conversations)
    for (const decision of decisionsOf(conversation.messages, conversation.tools ?? [], cache)) {
      const chosen = pick(learner.model.predict(decision), []);
      const slot = mine[decision.slot] as { decisions: number; right: number };
      slot.decisions++;
      if (chosen === decision.target) slot.right++;
      const offered = decision.candidates.filter((candidate) => candidate.name === decision.target).length;
      const baseline = uniform[decision.slot] as { decisions: number; right: number };
      baseline.decisions++;
      baseline.right += decision.candidates.length === 0 ? 0 : offered / decision.candidates.length;
    }
  const summary = (counts: Record<string, { decisions: number; right: number }>): DecisionAccuracy => {
    const decisions = slotNames.reduce((total, slot) => total + (counts[slot]?.decisions ?? 0), 0);
    const right = slotNames.reduce((total, slot) => total + (counts[slot]?.right ?? 0), 0);
    return {
      decisions,
      all: decisions === 0 ? 0 : right / decisions,
      bySlot: Object.fromEntries(
        slotNames.map((slot) => {
          const count = counts[slot] as { decisions: number; right: number };
          return [
            slot,
            {
              decisions: count.decisions,
              accuracy: count.decisions === 0 ? 0 : count.right / count.decisions,
            },
          ];
        }),
      ) as DecisionAccuracy['bySlot'],
    };
  };
  return { learner: summary(mine), uniform: summary(uniform) };
}
