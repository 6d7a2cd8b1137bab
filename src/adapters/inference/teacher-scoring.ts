// Teacher log-probabilities for a student sample, for users who run their own on-policy distillation loop:
// the prompt and completion token ids go to the teacher as one prompt, one token is generated, and the
// per-token log-probabilities of the prompt are cut to the completion span. vLLM answers through
// `/v1/completions` with `prompt_logprobs` (a leading null, then alternatives keyed by token-id strings);
// SGLang through `/generate` with `return_logprob` and `logprob_start_len` ([logprob, id, text] triples).
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { ChatCallOptions } from '../../runtime/chat-model.js';
import { createInferenceClient, type InferenceClientOptions } from './client.js';

/** A student sample as token ids. */
export interface StudentSample {
  promptTokenIds: readonly number[];
  completionTokenIds: readonly number[];
}

/** The teacher's view of the completion: one entry per completion token, in order. */
export interface TeacherScore {
  /** log p_teacher(completion[i] | prompt, completion[<i]). */
  logprobs: number[];
  tokenIds: number[];
  /** The teacher's rank of each token where the server says it (1 = its top choice). */
  ranks: Array<number | null>;
}

/**
 * Scores a student's completion with a teacher model: the teacher's log-probability of each completion
 * token given the prompt. `createTeacherScorer` makes one for a vLLM or SGLang server.
 */
export interface TeacherScorer {
  score(sample: StudentSample, options?: ChatCallOptions): Promise<TeacherScore>;
}

const SglangGenerateSchema = z.looseObject({
  meta_info: z.looseObject({
    input_token_logprobs: z.array(
      z.tuple([z.number().nullable(), z.number(), z.string().nullable()]).rest(z.unknown()),
    ),
  }),
});

function checkSample(sample: StudentSample): void {
  const ids = [...sample.promptTokenIds, ...sample.completionTokenIds];
  if (!ids.every((id) => Number.isInteger(id) && id >= 0))
    throw new HarnessAugmentError('teacher scoring: token ids must be non-negative integers', {
      kind: 'usage',
    });
  if (sample.promptTokenIds.length === 0)
    throw new HarnessAugmentError(
      'teacher scoring: the prompt must hold at least one token (the first token of a sequence has no log-probability)',
      { kind: 'usage' },
    );
}

function misaligned(engine: string, position: number, detail: string): HarnessAugmentError {
  return new HarnessAugmentError(`teacher scoring (${engine}): completion token ${position}: ${detail}`);
}

/**
 * Creates a scorer that asks a vLLM or SGLang teacher for the log-probabilities of a student's completion.
 *
 * @example
 * const teacher = createTeacherScorer({ engine: 'vllm', baseURL: 'http://127.0.0.1:8000', model: 'Qwen/Qwen3-8B' });
 * const { logprobs } = await teacher.score({ promptTokenIds: [151644, 872], completionTokenIds: [9707, 0] });
 */
export function createTeacherScorer(options: InferenceClientOptions): TeacherScorer {
  const client = createInferenceClient(options);
  return {
    async score(sample, callOptions) {
      checkSample(sample);
      const prompt = [...sample.promptTokenIds, ...sample.completionTokenIds];
      const start = sample.promptTokenIds.length;
      const completion = sample.completionTokenIds;
      if (options.engine === 'vllm') {
        const response = await client.completions(
          { prompt, max_tokens: 1, temperature: 0, prompt_logprobs: 0 },
          callOptions,
        );
        const entries = response.choices[0]?.prompt_logprobs ?? response.prompt_logprobs;
        if (!entries || entries.length !== prompt.length)
          throw new HarnessAugmentError(
            `teacher scoring (vllm): expected prompt_logprobs for ${prompt.length} tokens, got ${entries?.length ?? 'none'}`,
          );
        const result: TeacherScore = { logprobs: [], tokenIds: [...completion], ranks: [] };
        completion.forEach((id, index) => {
          const entry = entries[start + index]?.[String(id)];
          if (!entry) throw misaligned('vllm', index, `no log-probability for token id ${id}`);
          result.logprobs.push(entry.logprob);
          result.ranks.push(entry.rank ?? null);
        });
        return result;
      }
      const value = await client.chat.requestJson(
        `${client.root}/generate`,
        {
          input_ids: prompt,
          sampling_params: { max_new_tokens: 1, temperature: 0 },
          return_logprob: true,
          logprob_start_len: start,
        },
        callOptions,
      );
      const parsed = SglangGenerateSchema.safeParse(Array.isArray(value) ? value[0] : value);
      if (!parsed.success)
        throw new HarnessAugmentError(
          `teacher scoring (sglang): /generate answered without meta_info.input_token_logprobs`,
        );
      const triples = parsed.data.meta_info.input_token_logprobs;
      if (triples.length < completion.length)
        throw new HarnessAugmentError(
          `teacher scoring (sglang): ${triples.length} input log-probabilities for ${completion.length} completion tokens`,
        );
      // Releases differ on whether the token at logprob_start_len - 1 is included: the span is the tail.
      const span = triples.slice(triples.length - completion.length);
      const result: TeacherScore = { logprobs: [], tokenIds: [...completion], ranks: [] };
      span.forEach(([logprob, id], index) => {
        if (id !== completion[index])
          throw misaligned('sglang', index, `the server scored token ${id}, expected ${completion[index]}`);
        if (logprob === null) throw misaligned('sglang', index, 'no log-probability');
        result.logprobs.push(logprob);
        result.ranks.push(null);
      });
      return result;
    },
  };
}
