// The grounding reward: the numbers and quoted facts of each final reply must be found in what the agent
// was given: the successful tool results before the reply (a loaded skill's body among them), the user's
// messages, or the request context.
import { quoteSpans } from '../../../augment/protected-content.js';
import { extractNumbers } from '../../../harness/hook-engine.js';
import type { ScoreInput } from '../../scenario.js';
import type { RewardFinding, RewardResult } from '../reward.js';
import { genericView } from './view.js';

export interface ReplyGrounding {
  turn: number;
  message: number;
  numbers: string[];
  quotes: string[];
  /** The numbers and quotes not found in any source. */
  ungrounded: string[];
}

export interface GroundingDetails {
  /** The replies scored: final replies no hook rejected, hook fallback and block messages excluded. */
  replies: ReplyGrounding[];
  /** `ungrounded_number` and `ungrounded_quote`, one per reply and kind. */
  findings: RewardFinding[];
}

/**
 * The quoted facts of a text: what stands inside quotes in any form the protected-content rule knows
 * (`quoteSpans`), trimmed, in order, without repeats.
 */
export function quotedFacts(text: string): string[] {
  // Every quote mark of the rule is one UTF-16 unit: the fact is the span without its first and last.
  const found = quoteSpans(text)
    .sort((left, right) => left.start - right.start)
    .map((span) => span.text.slice(1, -1).trim());
  return [...new Set(found.filter((quote) => quote.length > 0))];
}

/** The raw text and, for JSON, every string and number leaf decoded (escapes resolved). */
function sourceTexts(text: string): string[] {
  const texts = [text];
  try {
    const leaves: string[] = [];
    const walk = (value: unknown) => {
      if (typeof value === 'string') leaves.push(value);
      else if (typeof value === 'number') leaves.push(String(value));
      else if (Array.isArray(value)) value.forEach(walk);
      else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
    };
    walk(JSON.parse(text));
    texts.push(...leaves);
  } catch {
    // Not JSON: the raw text is the source.
  }
  return texts;
}

const normalise = (text: string) => text.normalize('NFKC').toLowerCase();

/**
 * Scores how grounded the final replies are. Each final reply (the last assistant text of a turn that no
 * hook rejected; a hook's fallback or block message is the harness's text, not the agent's, and is not
 * scored) contributes its numbers (as `numbers_grounded` hooks read them; the `ignore` numbers of the base
 * harness's numbers_grounded hooks always pass) and its quoted facts (text in quotes of every form: '…',
 * "…", “…”, ‘…’, 「…」, 『…』, 《…》). A number is grounded when it occurs in a successful tool result before
 * the reply (the body of a skill the agent loaded is one: a rule such as "refuel exactly 2 GB" is what the
 * agent was given), a user message up to the reply, or the request context; a quote when it occurs there as
 * text (case-insensitive, NFKC). The score is grounded items / items, 1 when no reply states any. Read in
 * the base vocabulary.
 *
 * @example
 * groundingReward(input).score // 0.75: the reply quoted a price no tool returned
 */
export function groundingReward(input: ScoreInput): RewardResult<GroundingDetails> {
  const view = genericView(input);
  const messages = view.inBase.messages;
  const ignore = new Set(
    view.base.hooks.items.flatMap((hook) =>
      hook.check.type === 'numbers_grounded'
        ? hook.check.ignore.map((number) => extractNumbers(number)[0] ?? number)
        : [],
    ),
  );
  const contextTexts = sourceTexts(JSON.stringify(view.inBase.context ?? {}));
  const results: { at: number; texts: string[] }[] = [];
  for (const turn of view.baseTurns)
    for (const call of turn.calls) {
      const result = call.result === undefined ? undefined : messages[call.result];
      // A registry tool's result, or the body a skill load returned.
      if (call.kind !== 'unknown' && call.status === 'ok' && result?.role === 'tool')
        results.push({ at: call.result!, texts: sourceTexts(result.content) });
    }
  const replies: ReplyGrounding[] = [];
  const findings: RewardFinding[] = [];
  let items = 0;
  let grounded = 0;
  for (const turn of view.baseTurns) {
    const reply = turn.reply;
    if (!reply || reply.event) continue;
    const texts = [
      ...contextTexts,
      ...view.baseTurns.filter((other) => other.index <= turn.index).map((other) => other.user),
      ...results.filter((result) => result.at < reply.message).flatMap((result) => result.texts),
    ];
    const known = new Set(texts.flatMap((text) => extractNumbers(text)));
    const haystack = texts.map(normalise);
    const numbers = [...new Set(extractNumbers(reply.text))].filter((number) => !ignore.has(number));
    const quotes = quotedFacts(reply.text);
    const badNumbers = numbers.filter((number) => !known.has(number));
    const badQuotes = quotes.filter((quote) => !haystack.some((text) => text.includes(normalise(quote))));
    items += numbers.length + quotes.length;
    grounded += numbers.length - badNumbers.length + quotes.length - badQuotes.length;
    replies.push({
      turn: turn.index,
      message: reply.message,
      numbers,
      quotes,
      ungrounded: [...badNumbers, ...badQuotes],
    });
    if (badNumbers.length > 0)
      findings.push({
        code: 'ungrounded_number',
        turn: turn.index,
        message: reply.message,
        reason: `the reply states ${badNumbers.join(', ')}, found in no tool result, loaded skill, user message or context`,
        values: badNumbers,
      });
    if (badQuotes.length > 0)
      findings.push({
        code: 'ungrounded_quote',
        turn: turn.index,
        message: reply.message,
        reason: `the reply quotes ${badQuotes.map((quote) => JSON.stringify(quote)).join(', ')}, found in no tool result, loaded skill, user message or context`,
        values: badQuotes,
      });
  }
  return { score: items === 0 ? 1 : grounded / items, details: { replies, findings } };
}
