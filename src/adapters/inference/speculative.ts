// Speculative decoding settings as validated data: one zod schema per method (n-gram, EAGLE, EAGLE-3, MTP,
// a draft model), checked before any server starts, then written as vLLM's `--speculative-config` JSON or
// as SGLang's `--speculative-*` flags. Unknown fields pass through to vLLM unchanged (its config grows
// faster than this file); a wrong type or a missing draft model is an error that names the field.
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';

const tokens = z.int().min(1).max(64).describe('Tokens proposed per step.');

const NgramSchema = z.looseObject({
  method: z.literal('ngram'),
  num_speculative_tokens: tokens,
  prompt_lookup_max: z.int().min(1).optional().describe('Longest n-gram matched in the prompt.'),
  prompt_lookup_min: z.int().min(1).optional(),
});

const draftModel = z.string().min(1).describe('The draft model: a Hugging Face id or a local path.');

const EagleSchema = z.looseObject({
  method: z.enum(['eagle', 'eagle3']),
  model: draftModel,
  num_speculative_tokens: tokens,
  draft_tensor_parallel_size: z.int().min(1).optional(),
  /** SGLang only: candidates kept per step of the draft tree (`--speculative-eagle-topk`). */
  eagle_topk: z.int().min(1).optional(),
  /** SGLang only: draft tokens verified per step (`--speculative-num-draft-tokens`). */
  num_draft_tokens: z.int().min(1).optional(),
});

const MtpSchema = z.looseObject({
  method: z.literal('mtp'),
  num_speculative_tokens: tokens,
  eagle_topk: z.int().min(1).optional(),
  num_draft_tokens: z.int().min(1).optional(),
});

const DraftModelSchema = z.looseObject({
  method: z.literal('draft_model'),
  model: draftModel,
  num_speculative_tokens: tokens,
  draft_tensor_parallel_size: z.int().min(1).optional(),
});

/** Speculative decoding settings, in vLLM's `speculative_config` field names. */
export const SpeculativeConfigSchema = z.discriminatedUnion(
  'method',
  [NgramSchema, EagleSchema, MtpSchema, DraftModelSchema],
  { error: 'method must be one of ngram, eagle, eagle3, mtp, draft_model' },
);

/**
 * Checked speculative decoding settings, one shape per `method`, as `parseSpeculativeConfig` returns them:
 * the `speculative` serve option, written as vLLM's `--speculative-config` or SGLang's `--speculative-*`
 * flags.
 */
export type SpeculativeConfig = z.output<typeof SpeculativeConfigSchema>;

/**
 * Checks speculative decoding settings; throws a usage error naming each bad field.
 *
 * @example
 * parseSpeculativeConfig({ method: 'ngram', num_speculative_tokens: 4, prompt_lookup_max: 4 }).method // 'ngram'
 */
export function parseSpeculativeConfig(value: unknown, source = 'speculative config'): SpeculativeConfig {
  const parsed = SpeculativeConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = fromZodIssues(parsed.error.issues);
  const first = issues[0]!;
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  throw new HarnessAugmentError(`${source} is invalid: ${where}${first.message}`, { issues, kind: 'usage' });
}

/** The fields only SGLang reads; vLLM's JSON leaves them out. */
const sglangOnly = ['eagle_topk', 'num_draft_tokens'];

/**
 * vLLM's `--speculative-config` value: the settings as JSON with sorted keys (stable command lines).
 *
 * @example
 * vllmSpeculativeJson({ method: 'ngram', num_speculative_tokens: 4 }) // '{"method":"ngram","num_speculative_tokens":4}'
 */
export function vllmSpeculativeJson(config: SpeculativeConfig): string {
  const entries = Object.entries(config)
    .filter(([key, value]) => !sglangOnly.includes(key) && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

const sglangAlgorithm: Record<SpeculativeConfig['method'], string> = {
  ngram: 'NGRAM',
  eagle: 'EAGLE',
  eagle3: 'EAGLE3',
  // SGLang serves a model's own multi-token-prediction heads through its EAGLE path (NEXTN is an alias).
  mtp: 'EAGLE',
  draft_model: 'STANDALONE',
};

/**
 * SGLang's speculative flags for the same settings (`--speculative-algorithm` and friends).
 *
 * @example
 * sglangSpeculativeArgs({ method: 'eagle3', model: 'org/draft', num_speculative_tokens: 3 })
 * // ['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', 'org/draft', '--speculative-num-steps', '3', …]
 */
export function sglangSpeculativeArgs(config: SpeculativeConfig): string[] {
  const args = ['--speculative-algorithm', sglangAlgorithm[config.method]];
  if ('model' in config && typeof config.model === 'string')
    args.push('--speculative-draft-model-path', config.model);
  if (config.method === 'ngram') {
    // SGLang's n-gram proposer takes the draft length only.
    args.push('--speculative-num-draft-tokens', String(config.num_speculative_tokens));
    return args;
  }
  args.push('--speculative-num-steps', String(config.num_speculative_tokens));
  const topk = 'eagle_topk' in config ? (config.eagle_topk as number | undefined) : undefined;
  args.push('--speculative-eagle-topk', String(topk ?? 1));
  const draftTokens =
    'num_draft_tokens' in config ? (config.num_draft_tokens as number | undefined) : undefined;
  args.push('--speculative-num-draft-tokens', String(draftTokens ?? config.num_speculative_tokens + 1));
  return args;
}
