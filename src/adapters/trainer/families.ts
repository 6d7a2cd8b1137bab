// Which chat templates can carry an export's tool calls. A model family renders its rows with a chat
// template (the checkpoint's own, or the training template TRL swaps in); each template has rules an export
// must meet, or cannot carry tool calls at all. Keys are the file names under TRL's `trl/chat_templates/`
// (without `.jinja`), plus `mistral` (mistral-common's tokenizers: TRL ships no Mistral template). Read from
// the templates TRL 1.13 ships, rendered with transformers (test/consumers/test_render.py checks the pairs).

/** How an export writes what templates care about; the `trl` options, and what other formats amount to. */
export interface ExportShape {
  argumentsEncoding: 'object' | 'string';
  parallelCalls: 'keep' | 'split';
  toolCallContent: 'empty' | 'null' | 'omit';
  toolCallText: 'none' | 'lfm2';
  callIds: 'keep' | 'mistral';
}

/** One chat template: the family it belongs to, and what it needs of an export, or why it cannot carry calls. */
export interface ChatTemplateRule {
  template: string;
  family: string;
  /** Why no export can carry tool calls through it; absent when one can. */
  cannot?: string;
  /** What the export must write for it (absent keys: anything). */
  needs: Partial<ExportShape>;
  /** The template refuses two assistant messages in a row ("Conversation roles must alternate"). */
  alternating?: boolean;
}

const mapping = { argumentsEncoding: 'object' } as const;
const dropsCalls =
  'its template renders an assistant message that calls tools as an empty turn: the calls are dropped without an error';
const refusesCalls = (error: string) => `its template raises on a conversation with tool calls (${error})`;

const rules: ChatTemplateRule[] = [
  ...[
    'qwen2_5',
    'qwen3',
    'qwen3_instruct_2507',
    'qwen3_5_think',
    'qwen3_5_nothink',
    'qwen3_6',
    'qwen3_8',
    'qwen3_vl',
  ]
    .flatMap((stem) => [stem, `${stem}_training`])
    .map((template) => ({
      template,
      family: template.startsWith('qwen2') ? 'Qwen2.5' : 'Qwen3',
      needs: mapping,
    })),
  ...['glm4moe', 'glm4moe_training'].map((template) => ({ template, family: 'GLM-4-MoE', needs: mapping })),
  ...['nemotron_3_nano', 'nemotron_3_super', 'nemotron_3_ultra', 'nemotron_3_5_lightning']
    .flatMap((stem) => [stem, `${stem}_training`])
    .map((template) => ({ template, family: 'Nemotron 3', needs: mapping })),
  ...['muse_glimmer', 'muse_glimmer_training'].map((template) => ({
    template,
    family: 'Muse Glimmer',
    needs: mapping,
  })),
  ...['lfm2_2_5', 'lfm2_2_5_vl'].map((template) => ({ template, family: 'LFM2.5', needs: mapping })),
  ...['diffusion_gemma', 'diffusion_gemma_training'].map((template) => ({
    template,
    family: 'diffusion Gemma',
    needs: mapping,
  })),
  { template: 'gemma4', family: 'Gemma 4', needs: mapping },
  // DeepSeek-V3's own template concatenates `arguments` as text; TRL's training template `tojson`s them.
  { template: 'deepseekv3', family: 'DeepSeek-V3', needs: { argumentsEncoding: 'string' } },
  { template: 'deepseekv3_training', family: 'DeepSeek-V3', needs: mapping },
  // R1-distill renders the calls only when `content is none`, and concatenates the arguments as text.
  ...['deepseek_r1_distill', 'deepseek_r1_distill_training'].map((template) => ({
    template,
    family: 'DeepSeek-R1-distill',
    needs: { argumentsEncoding: 'string', toolCallContent: 'null' } as const,
  })),
  // "This model only supports single tool-calls at once!"; gpt-oss calls one function per message.
  ...['llama3_1', 'llama3_2'].map((template) => ({
    template,
    family: template === 'llama3_1' ? 'Llama 3.1' : 'Llama 3.2',
    needs: { ...mapping, parallelCalls: 'split' } as const,
  })),
  ...['gptoss', 'gptoss_training'].map((template) => ({
    template,
    family: 'gpt-oss',
    needs: { ...mapping, parallelCalls: 'split' } as const,
  })),
  // LFM2 (v1) never reads `tool_calls`: the calls must be written into `content`.
  ...['lfm2', 'lfm2_training'].map((template) => ({
    template,
    family: 'LFM2',
    needs: { toolCallText: 'lfm2' } as const,
  })),
  // mistral-common refuses any call id but 9 characters of [A-Za-z0-9]; Mistral's Jinja templates (Axolotl,
  // vLLM) also refuse two assistant messages in a row.
  { template: 'mistral', family: 'Mistral', needs: { callIds: 'mistral' }, alternating: true },
  ...['llama3', 'phi3', 'phi3_5', 'qwen2_5_vl']
    .flatMap((stem) => [stem, `${stem}_training`])
    .map((template) => ({
      template,
      family: { llama3: 'Llama 3', phi3: 'Phi-3', phi3_5: 'Phi-3.5', qwen2_5_vl: 'Qwen2.5-VL' }[
        template.replace(/_training$/, '')
      ] as string,
      cannot: dropsCalls,
      needs: {},
    })),
  ...[
    ['cohere', 'Cohere', 'Conversation roles must alternate'],
    ['cohere2', 'Cohere 2', 'Conversation roles must alternate'],
    ['gemma', 'Gemma', 'System role not supported'],
    ['gemma3', 'Gemma 3', 'Conversation roles must alternate'],
    ['idefics3', 'Idefics3', 'str object has no element 0'],
    ['llava_next', 'LLaVA-NeXT', "'str object' has no attribute 'text'"],
  ].flatMap(([stem, family, error]) =>
    [stem as string, `${stem}_training`].map((template) => ({
      template,
      family: family as string,
      cannot: refusesCalls(error as string),
      needs: {},
    })),
  ),
];

/**
 * Every chat template the table knows, by name (TRL's file name without `.jinja`, or `mistral`).
 *
 * @example
 * chatTemplateRules.get('llama3_1')?.needs // { argumentsEncoding: 'object', parallelCalls: 'split' }
 */
export const chatTemplateRules: ReadonlyMap<string, ChatTemplateRule> = new Map(
  rules.map((rule) => [rule.template, rule]),
);

/** The option that writes `key` as `value`, for a message that names what to set. */
const optionText = (key: keyof ExportShape, value: string) => `${key}: ${value}`;

/**
 * Why an export of this shape cannot carry its tool calls through a template; undefined when it can. A
 * template the table does not know is not judged here (render it: `hsa check-exports --template`).
 *
 * @example
 * templateProblem('llama3_1', { ...shape, parallelCalls: 'keep' }) // 'llama3_1 (Llama 3.1): needs parallelCalls: split'
 */
export function templateProblem(template: string, shape: ExportShape): string | undefined {
  const rule = chatTemplateRules.get(template);
  if (!rule) return undefined;
  if (rule.cannot) return `${template} (${rule.family}) cannot carry tool calls: ${rule.cannot}`;
  const missing = (Object.entries(rule.needs) as Array<[keyof ExportShape, string]>).filter(
    ([key, value]) => shape[key] !== value,
  );
  if (missing.length === 0) return undefined;
  return `${template} (${rule.family}) needs ${missing.map(([key, value]) => optionText(key, value)).join(', ')} (this export writes ${missing.map(([key]) => optionText(key, shape[key])).join(', ')})`;
}

/**
 * The templates an export of this shape is for (every known template it meets the rules of), sorted.
 *
 * @example
 * templatesFor({ argumentsEncoding: 'object', parallelCalls: 'split', toolCallContent: 'empty', toolCallText: 'none', callIds: 'keep' })
 * // ['diffusion_gemma', …, 'gptoss', …, 'llama3_1', 'llama3_2', …]
 */
export function templatesFor(shape: ExportShape): string[] {
  return [...chatTemplateRules.keys()]
    .filter((template) => templateProblem(template, shape) === undefined)
    .sort();
}

/**
 * Checks the templates an export is declared for (its `families` option): each must be known, able to carry
 * tool calls, and met by the export's options. The problems, one line each; empty when there is none.
 *
 * @example
 * familiesProblems(['llama3'], shape) // ['llama3 (Llama 3) cannot carry tool calls: …']
 */
export function familiesProblems(families: readonly string[], shape: ExportShape): string[] {
  return families.flatMap((template) => {
    if (!chatTemplateRules.has(template))
      return [
        `${template}: not a chat template this library knows (known: ${[...chatTemplateRules.keys()].sort().join(', ')})`,
      ];
    const problem = templateProblem(template, shape);
    return problem ? [problem] : [];
  });
}

/**
 * The README of an export folder: what it is, which chat templates it is for and which it is not, and a
 * machine-readable `templates:` line that `hsa check-exports` renders through.
 *
 * @example
 * exportReadme({ format: 'trl', describe: '…', shape, declared: [] }).includes('templates: ') // true
 */
export function exportReadme(options: {
  format: string;
  describe: string;
  /** How the export writes calls; undefined for a format that no chat template renders (OpenAI, LLaMA-Factory). */
  shape?: ExportShape;
  /** The templates the export was declared for (`families`); the README lists every fitting one otherwise. */
  declared?: readonly string[];
  /** What renders the rows when no chat template does. */
  renderedBy?: string;
}): string {
  const lines = [`# harness-augment export (format: ${options.format})`, '', `${options.describe}.`, ''];
  if (!options.shape) {
    lines.push(
      `Rendered by ${options.renderedBy ?? 'the trainer'}, not by a chat template.`,
      '',
      'templates: none',
      '',
    );
    return lines.join('\n');
  }
  const shape = options.shape;
  const fitting =
    options.declared && options.declared.length > 0 ? [...options.declared] : templatesFor(shape);
  const families = [...new Set(fitting.map((template) => chatTemplateRules.get(template)?.family))].filter(
    (family): family is string => family !== undefined,
  );
  lines.push(
    `For ${families.join(', ')}: the chat templates below (file names under TRL's \`trl/chat_templates/\`, and \`mistral\` for mistral-common's tokenizers). \`hsa check-exports <this folder> --template-dir <that folder>\` renders every row through them.`,
    '',
    `templates: ${fitting.join(', ')}`,
    '',
    `Written with: ${(Object.entries(shape) as Array<[keyof ExportShape, string]>).map(([key, value]) => optionText(key, value)).join(', ')}.`,
    '',
    'Not for (each needs another export, or cannot carry tool calls at all):',
    '',
  );
  for (const template of [...chatTemplateRules.keys()].sort()) {
    if (fitting.includes(template)) continue;
    lines.push(`- ${templateProblem(template, shape) ?? `${template}: not declared for this export`}`);
  }
  lines.push('');
  return lines.join('\n');
}
