// The harness file format. These zod schemas are the single source of truth: types are inferred from them
// and `harnessJsonSchema()` exports the JSON Schema of the file format from them.
import { z } from 'zod';

const nonEmpty = z.string().min(1);
/** Identifiers may be renamed into phrases or non-ASCII scripts later, so only line breaks and edge spaces are banned. */
const identifier = z
  .string()
  .min(1)
  .regex(/^\S(?:[^\r\n]*\S)?$/, 'must be non-empty, on one line, without leading or trailing spaces');
const version = z.string().min(1).describe('Free-form version of this part, e.g. "2026.11.3".');

// ── Skills ──────────────────────────────────────────────────────────────────────────────────────────

/** A relative path inside a skill's folder: `/`-separated, no empty, `.` or `..` segment, no `\`, `:` or NUL. */
const bundledPath = z
  .string()
  .regex(/^[^/\\:\0]+(?:\/[^/\\:\0]+)*$/u, 'must be a relative path with "/" separators')
  .refine((path) => path.split('/').every((segment) => segment !== '.' && segment !== '..'), {
    message: 'must not hold "." or ".." segments',
  });

export const SkillFileSchema = z
  .strictObject({
    path: bundledPath.describe('Path inside the skill folder, e.g. `scripts/extract.py`.'),
    encoding: z
      .enum(['utf8', 'base64'])
      .default('utf8')
      .describe('`utf8` for text, `base64` for any other bytes.'),
    content: z.string(),
  })
  .describe('A file bundled with a skill (scripts, reference documents, assets), kept byte for byte.');

/**
 * One skill: its id, kind, description and body.
 *
 * @example
 * SkillSchema.parse({ id: 'loans', kind: 'reply', description: 'Reserve books', body: '1. Call `find_book`.' });
 */
export const SkillSchema = z
  .strictObject({
    id: identifier.describe('Skill id; the argument of the skill-loading tool.'),
    kind: z
      .enum(['reply', 'strategy'])
      .describe('`reply` skills shape a reply; `strategy` skills steer the plan.'),
    description: nonEmpty.describe('One line shown in the prompt so the model can choose the skill.'),
    body: nonEmpty.describe('Markdown rules, returned when the skill is loaded.'),
    risk: z
      .enum(['low', 'medium', 'high'])
      .optional()
      .describe('Compliance risk of replies under this skill.'),
    frontMatter: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Agent Skills front-matter fields besides name and description (license, compatibility, allowed-tools, metadata, …), kept for export.',
      ),
    files: z
      .array(SkillFileSchema)
      .optional()
      .describe(
        'Files the skill folder bundles next to its SKILL.md, kept for export; never shown to the model.',
      ),
  })
  .describe('A reply rule or strategy as a Markdown module.');

export const SkillLoaderSchema = z
  .strictObject({
    tool: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default('load_skill'),
    argument: nonEmpty.default('skill_id'),
    description: nonEmpty.default('Load the full rules of a skill by its id before you use it.'),
  })
  .describe('The tool through which the model loads a skill; it is offered next to the registry tools.');

export const SkillsPartSchema = z.strictObject({
  version,
  loader: SkillLoaderSchema.prefault({}),
  items: z.array(SkillSchema),
});

// ── Hooks ───────────────────────────────────────────────────────────────────────────────────────────

export const HookStageSchema = z
  .enum(['input', 'pre_tool', 'post_tool', 'pre_reply', 'post_reply'])
  .describe('Where in the agent loop the hook runs.');

const BannedTermsCheck = z.strictObject({
  type: z.literal('banned_terms'),
  terms: z.array(nonEmpty).min(1),
  caseSensitive: z.boolean().default(false),
});
const MaxLengthCheck = z.strictObject({
  type: z.literal('max_length'),
  max: z.number().int().positive().describe('Maximum length in Unicode code points.'),
});
const RegexCheck = z.strictObject({
  type: z.literal('regex'),
  pattern: nonEmpty,
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'only the flags i, m, s and u are allowed')
    .default(''),
  mode: z.enum(['must', 'must_not']),
});
const SkillLoadedCheck = z.strictObject({
  type: z.literal('skill_loaded'),
  skill: identifier
    .optional()
    .describe('A skill id that must have been loaded; when given, `kind` is not consulted.'),
  kind: z
    .enum(['reply', 'strategy', 'any'])
    .default('reply')
    .describe('Without `skill`: some skill of this kind must have been loaded.'),
  scope: z
    .enum(['turn', 'conversation'])
    .default('turn')
    .describe('`turn`: loaded since the latest user message; `conversation`: loaded at any point.'),
});
const ToolArgumentsCheck = z.strictObject({ type: z.literal('tool_arguments') });
const MaxToolCallsCheck = z.strictObject({
  type: z.literal('max_tool_calls'),
  max: z.number().int().positive().describe('Most tool calls allowed in one turn, skill loads included.'),
});
const NumbersGroundedCheck = z.strictObject({
  type: z.literal('numbers_grounded'),
  sources: z
    .array(z.enum(['tool_results', 'user', 'context']))
    .min(1)
    .default(['tool_results', 'user']),
  ignore: z.array(z.string()).default([]).describe('Numbers that may always appear, e.g. "1".'),
});
const JsonShapeCheck = z.strictObject({
  type: z.literal('json_shape'),
  schema: z.record(z.string(), z.unknown()).describe('JSON Schema the parsed reply must satisfy.'),
});
const CustomCheck = z
  .strictObject({
    type: z.literal('custom'),
    name: identifier.describe('Name of a check registered with `createHookCheckRegistry`.'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Parameters of the registered check, validated by its own schema.'),
  })
  .describe('A registered check, for what the declarative checks cannot say.');

/**
 * The checks a hook can run: the declarative ones and registered custom checks.
 *
 * @example
 * HookCheckSchema.parse({ type: 'max_length', max: 120 });
 */
export const HookCheckSchema = z.discriminatedUnion('type', [
  BannedTermsCheck,
  MaxLengthCheck,
  RegexCheck,
  SkillLoadedCheck,
  ToolArgumentsCheck,
  MaxToolCallsCheck,
  NumbersGroundedCheck,
  JsonShapeCheck,
  CustomCheck,
]);

/**
 * What a hook does when its check fails: retry with feedback, block, or fall back.
 *
 * @example
 * HookActionSchema.parse({ action: 'retry', maxRetries: 1, feedback: 'Shorter, please.' });
 */
export const HookActionSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('retry'),
    maxRetries: z.number().int().min(0).max(20),
    feedback: nonEmpty.describe('Handlebars template of the feedback turn; see docs for its variables.'),
    exhausted: z.enum(['block', 'fallback']).default('block').describe('What happens when retries run out.'),
    fallback: z.string().optional().describe('Fixed reply used when `exhausted` is `fallback`.'),
  }),
  z.strictObject({ action: z.literal('block'), message: z.string().optional() }),
  z.strictObject({ action: z.literal('fallback'), reply: nonEmpty }),
]);

/** A tool name as the registry (or the skill loader) spells it. */
const toolName = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{1,64}$/,
    'must be 1-64 characters of A-Z, a-z, 0-9, _ and - (OpenAI function names)',
  );

/**
 * One hook: its stage, its check and what to do when the check fails.
 *
 * @example
 * HookSchema.parse({
 *   id: 'short_reply',
 *   stage: 'pre_reply',
 *   check: { type: 'max_length', max: 120 },
 *   onFail: { action: 'retry', maxRetries: 1, feedback: 'Shorter, please.' },
 * });
 */
export const HookSchema = z.strictObject({
  id: identifier,
  stage: HookStageSchema,
  description: z.string().optional(),
  enabled: z.boolean().default(true),
  tools: z
    .array(toolName)
    .min(1)
    .optional()
    .describe(
      '`pre_tool` and `post_tool` only: the hook runs only for calls to these tools (registry tools or the skill loader).',
    ),
  check: HookCheckSchema,
  onFail: HookActionSchema,
});

export const HooksPartSchema = z.strictObject({ version, items: z.array(HookSchema) });

// ── System prompt pipeline ──────────────────────────────────────────────────────────────────────────

/**
 * One section of the system prompt pipeline: an id, a title and a Handlebars template.
 *
 * @example
 * PromptSectionSchema.parse({ id: 'role', title: 'Role', template: 'You staff the desk of {{context.branch}}.' });
 */
export const PromptSectionSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[A-Za-z_][A-Za-z0-9_.-]*$/,
      'must start with a letter or underscore and hold only A-Z, 0-9, _ . -',
    ),
  title: nonEmpty,
  template: z.string().describe('Handlebars template over { harness, skills, tools, hooks, context }.'),
  pinned: z.boolean().default(false).describe('Pinned sections keep their position under reordering.'),
});

/**
 * The heading styles a prompt section can be rendered with.
 *
 * @example
 * HeadingStyleSchema.parse('xml'); // 'xml'
 */
export const HeadingStyleSchema = z.enum(['markdown', 'xml', 'numbered', 'bracketed']);
/**
 * The list styles a skill or prompt list can be written in.
 *
 * @example
 * ListStyleSchema.options; // every style an operator may draw
 */
export const ListStyleSchema = z
  .enum(['bullets', 'numbered', 'table', 'json', 'yaml'])
  .describe('How `{{skillList}}` and `{{toolList}}` render in templates.');

export const PromptPartSchema = z.strictObject({
  version,
  headingStyle: HeadingStyleSchema.default('markdown'),
  listStyle: ListStyleSchema.default('bullets'),
  sections: z.array(PromptSectionSchema).min(1),
});

// ── Tool registry ───────────────────────────────────────────────────────────────────────────────────

export const JsonSchemaObjectSchema = z
  .record(z.string(), z.unknown())
  .describe('A JSON Schema (draft 2020-12 or draft-07 subset that ajv accepts).');

/**
 * One registry tool: its name, description and JSON Schema parameters.
 *
 * @example
 * ToolSchema.parse({
 *   name: 'find_book',
 *   description: 'Find a book by its title.',
 *   parameters: { type: 'object', properties: { title: { type: 'string' } } },
 * });
 */
export const ToolSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,64}$/,
      'must be 1-64 characters of A-Z, a-z, 0-9, _ and - (OpenAI function names)',
    ),
  description: nonEmpty,
  parameters: JsonSchemaObjectSchema,
  title: z
    .string()
    .min(1)
    .optional()
    .describe('Display name, as MCP tools carry it; not offered to the model.'),
  annotations: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('MCP tool annotations (title, readOnlyHint, destructiveHint, …): hints kept for export.'),
  outputSchema: JsonSchemaObjectSchema.optional().describe(
    'JSON Schema of the structured result (MCP `outputSchema`); kept for export.',
  ),
  strict: z.boolean().optional().describe('OpenAI strict mode of the function (`strict`); kept for export.'),
  mcp: z
    .strictObject({
      order: z.array(z.string()).describe('The keys of the MCP tool as listed, in order.'),
      fields: z
        .record(z.string(), z.unknown())
        .describe('MCP Tool fields the harness does not model (execution, icons, _meta, …), as listed.'),
    })
    .optional()
    .describe(
      'What `import mcp` read beyond the harness fields, so that `exportMcpTools` writes the tool back byte for byte.',
    ),
});

export const ToolsPartSchema = z.strictObject({ version, items: z.array(ToolSchema) });

// ── The harness ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The schema of a harness: skills, hooks, prompt sections and tools, each versioned.
 *
 * @example
 * const harness = HarnessSchema.parse(document); // parseHarness(document) gives readable issues
 */
export const HarnessSchema = z
  .strictObject({
    $schema: z.string().optional(),
    id: identifier,
    description: z.string().optional(),
    skills: SkillsPartSchema,
    hooks: HooksPartSchema,
    prompt: PromptPartSchema,
    tools: ToolsPartSchema,
  })
  .describe(
    'The runtime configuration around an LLM agent: skills, hooks, system prompt pipeline and tools.',
  );

/** A skill: a reply rule or strategy as a Markdown module with an id, a kind, a description and a body. */
export type Skill = z.infer<typeof SkillSchema>;
export type SkillFile = z.infer<typeof SkillFileSchema>;
/** The tool through which the model loads a skill (default `load_skill`, argument `skill_id`). */
export type SkillLoader = z.infer<typeof SkillLoaderSchema>;
/** The point of the agent loop a hook runs at. */
export type HookStage = z.infer<typeof HookStageSchema>;
/** What a hook checks (a built-in check by `type`, or a custom one by name). */
export type HookCheck = z.infer<typeof HookCheckSchema>;
/** What a hook does when its check fails: retry with feedback, block, or fall back. */
export type HookAction = z.infer<typeof HookActionSchema>;
/** A hook: a declarative check at a stage of the agent loop and what to do when it fails. */
export type Hook = z.infer<typeof HookSchema>;
/**
 * One section of the system prompt pipeline: an id, a Handlebars template, its title and whether it is
 * pinned.
 */
export type PromptSection = z.infer<typeof PromptSectionSchema>;
/** How the rendered system prompt marks its section headings. */
export type HeadingStyle = z.infer<typeof HeadingStyleSchema>;
/** How a skill body or prompt section writes its lists. */
export type ListStyle = z.infer<typeof ListStyleSchema>;
/** A tool definition: name, description and JSON Schema parameters. */
export type Tool = z.infer<typeof ToolSchema>;
/** A parsed harness, defaults applied. Named `HarnessSpec` in prose only where it could be confused with other libraries' `Harness`. */
export type Harness = z.infer<typeof HarnessSchema>;
/** What a harness file may hold before defaults are applied. */
export type HarnessInput = z.input<typeof HarnessSchema>;
/** The four independently versioned parts of a harness. */
export type HarnessPartName = 'skills' | 'hooks' | 'prompt' | 'tools';
export const harnessPartNames: readonly HarnessPartName[] = ['skills', 'hooks', 'prompt', 'tools'];

/** Stages at which each check type is meaningful; a check type declares its own facts here. */
export const checkStages: Record<HookCheck['type'], readonly HookStage[]> = {
  banned_terms: ['input', 'post_tool', 'pre_reply', 'post_reply'],
  max_length: ['input', 'post_tool', 'pre_reply', 'post_reply'],
  regex: ['input', 'post_tool', 'pre_reply', 'post_reply'],
  skill_loaded: ['pre_tool', 'pre_reply', 'post_reply'],
  tool_arguments: ['pre_tool'],
  max_tool_calls: ['pre_tool'],
  numbers_grounded: ['pre_reply', 'post_reply'],
  json_shape: ['pre_reply', 'post_reply'],
  // A custom check declares its own stages in its registration; see `defineHookCheck`.
  custom: ['input', 'pre_tool', 'post_tool', 'pre_reply', 'post_reply'],
};

/** The stages at which tool scoping (`tools` on a hook) means something. */
export const toolScopedStages: readonly HookStage[] = ['pre_tool', 'post_tool'];
