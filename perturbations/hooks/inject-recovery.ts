// perturbations/hooks/inject-recovery.ts — inserts a failed attempt and its hook feedback before a reply of the trajectory; the harness and every original message stay.

import { z } from 'zod';
import {
  affectedCount,
  certifies,
  defineOperator,
  forwardFacts,
  type Harness,
  type Hook,
  type Message,
  type Random,
  type Relabel,
  type RelabelStep,
  type RunContext,
  walkHookDecisions,
} from '../../src/kit/index.js';
import { type HookFacts, hookFacts } from './_hook-facts.js';

const supported = ['banned_terms', 'max_length', 'numbers_grounded'] as const;

const isChinese = (text: string) => /\p{Script=Han}/u.test(text);
const codePoints = (text: string) => [...text].length;

const padding = {
  en: [
    'Let me know if you have any other questions.',
    'Happy to help with anything else you need.',
    'Thanks a lot for asking, that is a good question.',
    'Feel free to ask me more at any time.',
  ],
  zh: [
    '有其他问题随时问我哦～',
    '感谢您的提问，这个问题问得很好！',
    '欢迎继续提问，我随时在这里～',
    '还有什么想了解的都可以告诉我。',
  ],
} as const;

/** The longest padding a too-long attempt may get, in code points: beyond it the attempt reads unnaturally. */
const maxPadding = 400;

/** Failed attempts built from a reply so that the hook's check fails, in the order to try them. */
function failingAttempts(reply: string, hook: Hook, rng: Random): string[] {
  const chinese = isChinese(reply);
  const space = chinese || reply === '' ? '' : ' ';
  switch (hook.check.type) {
    case 'banned_terms': {
      // After a finished sentence an English term starts a new one; a case-sensitive term keeps its spelling.
      const capitalise = !chinese && !hook.check.caseSensitive && /[.!?]$/.test(reply);
      // Terms in the reply's own script first: a Chinese reply gets a Chinese term when the hook has one.
      const shuffled = rng.shuffle(hook.check.terms);
      return [
        ...shuffled.filter((term) => isChinese(term) === chinese),
        ...shuffled.filter((term) => isChinese(term) !== chinese),
      ]
        .map((term) => (capitalise ? term.charAt(0).toUpperCase() + term.slice(1) : term))
        .map((term) => `${reply}${space}${term}${chinese ? '！' : '!'}`);
    }
    case 'max_length': {
      const { max } = hook.check;
      if (max - codePoints(reply) > maxPadding) return [];
      const pool = rng.shuffle(chinese ? padding.zh : padding.en);
      let text = reply;
      for (let index = 0; codePoints(text) <= max; index++)
        text += `${text === '' ? '' : space}${pool[index % pool.length]}`;
      return [text];
    }
    case 'numbers_grounded':
      return [0, 1, 2].map(() => {
        const number = rng.int(1000, 9999);
        return chinese ? `${reply}合计${number}。` : `${reply}${space}That comes to ${number} overall.`;
      });
    default:
      return [];
  }
}

interface Episode {
  at: number;
  hook: string;
  messages: Message[];
}

/** Insertions from the last position to the first, so each step's `at` holds when it runs. */
const relabelOf = (episodes: readonly Episode[]): Relabel => ({
  steps: [...episodes]
    .sort((a, b) => b.at - a.at)
    .map((episode): RelabelStep => ({ type: 'insert_messages', at: episode.at, messages: episode.messages })),
});

/** Whether the injected attempt passes every other hook, so that it fails its hook and only that one. */
function failsOnlyItsHook(
  harness: Harness,
  relabel: Relabel,
  episode: Episode,
  episodes: readonly Episode[],
  trajectory: HookFacts['trajectory'],
  run: RunContext,
): boolean {
  const without: Harness = {
    ...harness,
    hooks: {
      ...harness.hooks,
      items: harness.hooks.items.map((hook) =>
        hook.id === episode.hook ? { ...hook, enabled: false } : hook,
      ),
    },
  };
  // The certificate just moved the trajectory along this relabel: read, not walked again.
  const moved = forwardFacts(trajectory, relabel, harness, run).trajectory;
  const index = episode.at + 2 * episodes.filter((other) => other.at < episode.at).length;
  return walkHookDecisions(moved, without, { hookChecks: run.hookChecks })
    .filter((decision) => decision.path.length === 2 && decision.path[1] === index)
    .every((decision) => decision.failed === undefined);
}

/**
 * Injects recovery episodes: before a reply of the trajectory, a failed attempt built to fail one enabled
 * `retry` hook of stage pre_reply or post_reply first and alone (a banned term appended, padding past a
 * length limit, an ungrounded number), marked `hook_rejected` and `injected`, then its feedback turn
 * (re-derived from the hook), then the reply unchanged. The relabel is an `insert_messages` step; its
 * inverse removes the episode. Only where the hook's budget allows one more failure in that turn. Severity
 * is the number of episodes (one to three). Skips without a trajectory or when no episode validates.
 *
 * @example
 * const applied = await applyOperator(injectRecovery, harness, { rng: 'seed', severity: 0.2, trajectory });
 * applied.relabel.steps[0] // { type: 'insert_messages', at: 6, messages: [rejected attempt, feedback turn] }
 */
export const injectRecovery = defineOperator({
  id: 'hooks/inject-recovery',
  version: 1,
  dimension: 'hooks',
  mode: 'exact',
  needsExample: true,
  description:
    'Inserts a failed attempt and its hook feedback before a reply; the harness and the original messages stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory) return { skip: 'needs a trajectory to inject an episode into' };
    const facts = hookFacts(trajectory, harness, run);
    if (!facts) return { skip: 'the trajectory does not validate under the harness' };
    const hooks = harness.hooks.items.filter(
      (hook) =>
        hook.enabled &&
        hook.onFail.action === 'retry' &&
        (hook.stage === 'pre_reply' || hook.stage === 'post_reply') &&
        (supported as readonly string[]).includes(hook.check.type),
    );
    if (hooks.length === 0)
      return { skip: 'no enabled retry hook on replies whose check an attempt can be built to fail' };
    const replies = facts.trajectory.messages.flatMap((message, index) =>
      message.role === 'assistant' &&
      typeof message.content === 'string' &&
      !message.tool_calls &&
      !message.hsa
        ? [index]
        : [],
    );
    if (replies.length === 0) return { skip: 'the trajectory has no accepted reply' };
    const target = affectedCount(severity, Math.min(3, replies.length));
    const episodes: Episode[] = [];
    const failuresIn = (hook: string, turn: number) =>
      (facts.failuresPerTurn.get(hook)?.get(turn) ?? 0) +
      episodes.filter((episode) => episode.hook === hook && facts.turnOf[episode.at] === turn).length;
    for (const at of rng.fork('replies').shuffle(replies)) {
      if (episodes.length >= target) break;
      const reply = facts.trajectory.messages[at] as Extract<Message, { role: 'assistant' }>;
      const turn = facts.turnOf[at] ?? -1;
      const replyRng = rng.fork(`reply/${at}`);
      search: for (const hook of replyRng.shuffle(hooks)) {
        if (hook.onFail.action !== 'retry' || failuresIn(hook.id, turn) + 1 > hook.onFail.maxRetries)
          continue;
        for (const text of failingAttempts(reply.content ?? '', hook, replyRng.fork(hook.id))) {
          const marker = { hook: hook.id, injected: true as const };
          const episode: Episode = {
            at,
            hook: hook.id,
            messages: [
              {
                role: 'assistant',
                content: text,
                ...(reply.name === undefined ? {} : { name: reply.name }),
                hsa: { event: 'hook_rejected', ...marker },
              },
              { role: 'user', content: '', hsa: { event: 'hook_feedback', ...marker } },
            ],
          };
          const relabel = relabelOf([...episodes, episode]);
          if (!certifies({ base: harness, variant: harness, relabel, trajectory, run })) continue;
          if (!failsOnlyItsHook(harness, relabel, episode, episodes, trajectory, run)) continue;
          episodes.push(episode);
          break search;
        }
      }
    }
    if (episodes.length === 0)
      return { skip: 'no failed attempt could be built that fails one hook alone within its budget' };
    return { harness, relabel: relabelOf(episodes) };
  },
});
