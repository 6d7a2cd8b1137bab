// A meaning judge over an OpenAI-compatible chat model (the MeaningJudgeV1 spec of the pipeline): one request
// per pair, up to `concurrency` at once, asking whether the variant text requires exactly what the base text
// requires, answered as a JSON verdict. An answer that is not a verdict counts as "not the same", never as a
// pass; a transport failure (after the client's retries) rejects, so the run stops and can resume.
import { contentHash } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { MeaningJudgeConfig } from '../../pipeline/meaning-judge-config.js';
import type { MeaningJudgeV1, MeaningPair, MeaningVerdict } from '../../pipeline/meaning-judge-spec.js';
import type { ChatModel, ChatRequest } from '../../runtime/chat-model.js';
import { endpointClient, endpointRequest } from '../endpoint-client.js';
import type { OpenAICompatibleClient } from '../openai/index.js';
import { jsonObjects } from './json-objects.js';

/** The options of `createMeaningJudge`: the chat model, its request fields, and how many pairs at once. */
export interface MeaningJudgeOptions {
  model: ChatModel;
  request: Omit<ChatRequest, 'messages' | 'tools'>;
  /** Pairs asked at once (default 8). */
  concurrency?: number;
  /** Replaces the default instructions (the judge's id changes with them). */
  instructions?: string;
  /** Where the model is served, for the judge's id (e.g. the base URL): verdicts are cached per id. */
  endpoint?: string;
}

/**
 * The instructions the judge model gets by default.
 *
 * @example
 * createMeaningJudge({ model, request, instructions: `${defaultMeaningInstructions}\nPrices and limits must match digit for digit.` });
 */
export const defaultMeaningInstructions = [
  "You compare two versions of one text from an AI agent's configuration: a skill's rules, a skill or tool description, a tool parameter's description (what the agent must pass in that argument), a system prompt section, or a hook's feedback message.",
  'The variant was rewritten (reworded, reordered, restyled, renumbered) and must require exactly what the base requires: a domain expert following either text would do the same task, with the same rules, conditions, limits, numbers, order of steps and prohibitions, nothing added and nothing dropped.',
  'Differences of wording, formatting, list or heading style, or the order of rules that do not depend on each other, do not matter.',
  'Answer with one JSON object and nothing else: {"same": true|false, "reason": "<one sentence>"}.',
].join('\n');

/**
 * Reads a meaning verdict from a model's answer: the JSON object with a `same` key (a `<think>` block and
 * other objects around it are ignored). No verdict, a `same` that is not a boolean, or two verdicts that
 * disagree give `same: false` with the reason.
 *
 * @example
 * parseMeaningVerdict('{"same": false, "reason": "the variant drops the 60-character limit"}').same // false
 */
export function parseMeaningVerdict(text: string | null): MeaningVerdict {
  const { objects, unparsable } = text ? jsonObjects(text) : { objects: [], unparsable: false };
  const verdicts = objects.filter((object) => 'same' in object);
  if (verdicts.length === 0)
    return {
      same: false,
      reason: unparsable ? 'the judge answered invalid JSON' : 'the judge gave no JSON verdict',
    };
  if (verdicts.some((verdict) => typeof verdict.same !== 'boolean'))
    return { same: false, reason: 'the verdict has no boolean "same"' };
  if (new Set(verdicts.map((verdict) => verdict.same)).size > 1)
    return { same: false, reason: 'the judge gave two different verdicts' };
  const verdict = verdicts[0] as { same: boolean; reason?: unknown };
  const reason =
    typeof verdict.reason === 'string' && verdict.reason.trim() !== ''
      ? verdict.reason.trim()
      : verdict.same
        ? 'same requirements'
        : 'the judge gave no reason';
  return { same: verdict.same, reason };
}

function question(pair: MeaningPair): string {
  return [
    `Part: ${pair.label} (${pair.kind.replace(/_/g, ' ')})`,
    '',
    'Base text:',
    '<base>',
    pair.base,
    '</base>',
    '',
    'Variant text:',
    '<variant>',
    pair.variant,
    '</variant>',
    '',
    'Does the variant text require exactly what the base text requires?',
  ].join('\n');
}

/**
 * Creates a meaning judge that asks a chat model about each pair.
 *
 * @example
 * const judge = createMeaningJudge({ model: createOpenAICompatible({ baseURL }), request: { model: 'qwen3-32b', temperature: 0 } });
 * const verdicts = await judge.judgeParts(pairs);
 */
export function createMeaningJudge(options: MeaningJudgeOptions): MeaningJudgeV1 {
  const instructions = options.instructions ?? defaultMeaningInstructions;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const id = `meaning-v1:${options.request.model}@${options.endpoint ?? 'model'}:${contentHash({
    instructions,
    request: options.request,
  }).slice(7, 19)}`;
  const ask = async (pair: MeaningPair, signal: AbortSignal | undefined): Promise<MeaningVerdict> => {
    const completion = await options.model.complete(
      {
        ...options.request,
        messages: [
          { role: 'system', content: instructions },
          { role: 'user', content: question(pair) },
        ],
      },
      signal ? { signal } : {},
    );
    return parseMeaningVerdict(completion.choices[0]?.message.content ?? null);
  };
  return {
    specificationVersion: 'v1',
    id,
    async judgeParts(pairs, callOptions = {}) {
      const verdicts: MeaningVerdict[] = new Array(pairs.length);
      let next = 0;
      let failed = false;
      const worker = async () => {
        while (next < pairs.length && !failed) {
          const index = next++;
          try {
            verdicts[index] = await ask(pairs[index] as MeaningPair, callOptions.signal);
          } catch (error) {
            // The others stop taking pairs: the call rejects with the first failure.
            failed = true;
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, pairs.length) }, worker));
      return verdicts;
    },
  };
}

/**
 * The meaning judge a configuration names (`hsa augment --judge`, a pipeline's `judge.meaning`), with its
 * client for retry statistics. An `apiKeyEnv` that names an unset variable is a `usage` error.
 *
 * @example
 * const { judge } = meaningJudgeFromConfig(await loadMeaningJudgeConfig('judge.yaml'), process.env);
 */
export function meaningJudgeFromConfig(
  config: MeaningJudgeConfig,
  env: Record<string, string | undefined>,
): { judge: MeaningJudgeV1; client: OpenAICompatibleClient } {
  const { endpoint } = config;
  if (endpoint.apiKeyEnv !== undefined && !env[endpoint.apiKeyEnv])
    throw new HarnessAugmentError(
      `judge configuration: endpoint.apiKeyEnv names ${endpoint.apiKeyEnv}, which is not set`,
      { kind: 'usage' },
    );
  const client = endpointClient(endpoint, env);
  return {
    client,
    judge: createMeaningJudge({
      model: client,
      request: endpointRequest(endpoint),
      concurrency: config.concurrency,
      endpoint: endpoint.baseURL,
    }),
  };
}
