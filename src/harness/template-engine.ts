// A sandboxed Handlebars: its own instance, strict mode, a fixed set of helpers, no prototype access and
// no HTML escaping (prompts are not HTML). Templates come from harness files, so nothing in them may
// reach code execution or prototypes.
import Handlebars from 'handlebars';

type HelperFunction = (...args: unknown[]) => unknown;

const isOptions = (value: unknown) =>
  typeof value === 'object' && value !== null && 'hash' in value && 'data' in value;
/** Handlebars passes an options object last; helpers see only the template's own arguments. */
const withoutOptions = (args: unknown[]) =>
  args.length > 0 && isOptions(args.at(-1)) ? args.slice(0, -1) : args;

/**
 * The documented helpers; any other helper name is a compile error.
 *
 * @example
 * Object.keys(templateHelpers) // ['eq', 'ne', 'and', 'or', 'not', 'add', 'join', 'json', 'upper', 'lower', 'default']
 */
export const templateHelpers: Readonly<Record<string, HelperFunction>> = Object.freeze({
  /** `{{#if (eq a b)}}` — strict equality. */
  eq: (...args) => {
    const [a, b] = withoutOptions(args);
    return a === b;
  },
  /** `{{#if (ne a b)}}` — strict inequality. */
  ne: (...args) => {
    const [a, b] = withoutOptions(args);
    return a !== b;
  },
  /** `{{#if (and a b)}}` */
  and: (...args) => withoutOptions(args).every(Boolean),
  /** `{{#if (or a b)}}` */
  or: (...args) => withoutOptions(args).some(Boolean),
  /** `{{#if (not a)}}` */
  not: (...args) => !withoutOptions(args)[0],
  /** `{{add @index 1}}` — sum of numbers. */
  add: (...args) => withoutOptions(args).reduce<number>((sum, value) => sum + Number(value), 0),
  /** `{{join list ", "}}` — joins an array; the separator defaults to ", ". */
  join: (...args) => {
    const [list, separator] = withoutOptions(args);
    return Array.isArray(list) ? list.join(typeof separator === 'string' ? separator : ', ') : '';
  },
  /** `{{json value}}` — compact JSON. */
  json: (...args) => JSON.stringify(withoutOptions(args)[0] ?? null),
  /** `{{upper text}}` */
  upper: (...args) => String(withoutOptions(args)[0] ?? '').toUpperCase(),
  /** `{{lower text}}` */
  lower: (...args) => String(withoutOptions(args)[0] ?? '').toLowerCase(),
  /** `{{default value "fallback"}}` — the fallback when the value is null, undefined or "". */
  default: (...args) => {
    const [value, fallback] = withoutOptions(args);
    return value === undefined || value === null || value === '' ? fallback : value;
  },
});

const builtInHelpers = ['if', 'unless', 'each', 'with'] as const;

function createSandbox(): typeof Handlebars {
  const instance = Handlebars.create();
  // `log` writes to the console and `lookup` reads computed property names; neither belongs in a prompt.
  instance.unregisterHelper('log');
  instance.unregisterHelper('lookup');
  for (const [name, helper] of Object.entries(templateHelpers)) instance.registerHelper(name, helper);
  return instance;
}

const sandbox = createSandbox();

/** The deepest nesting of blocks (`{{#if}}`, `{{#each}}`, …) a template may have: Handlebars' compiler is steeply super-linear in it. */
export const maxTemplateNesting = 64;
/** The most block bodies one render may produce (every `{{#each}}` item, every taken `{{#if}}`): nested loops multiply. */
export const maxRenderSteps = 200_000;
/** The most characters the block bodies of one render may produce together. */
export const maxRenderCharacters = 16 * 1024 * 1024;

/** The work of the render in progress (renders are synchronous: one at a time). */
const budget = { steps: 0, characters: 0 };

// Every block helper counts the bodies it renders against the budget, so that nested loops over a large
// context end with a message instead of running for hours.
for (const name of builtInHelpers) {
  const original = sandbox.helpers[name] as HelperFunction;
  sandbox.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    const options = args.at(-1);
    if (!isOptions(options)) return original.apply(this, args);
    const counted = (body: unknown) =>
      typeof body !== 'function'
        ? body
        : (...bodyArgs: unknown[]) => {
            if (++budget.steps > maxRenderSteps)
              throw new Error(
                `the template renders more than ${maxRenderSteps} block bodies (nested loops over a large context?), the limit of one render`,
              );
            const text = (body as HelperFunction)(...bodyArgs);
            budget.characters += typeof text === 'string' ? text.length : 0;
            if (budget.characters > maxRenderCharacters)
              throw new Error(
                `the template renders more than ${maxRenderCharacters} characters, the limit of one render`,
              );
            return text;
          };
    const block = options as { fn?: unknown; inverse?: unknown };
    return original.apply(this, [
      ...args.slice(0, -1),
      { ...block, fn: counted(block.fn), inverse: counted(block.inverse) },
    ]);
  });
}

/**
 * How deep the blocks of a template nest, found by a linear scan of its text before Handlebars parses it
 * (comments and raw blocks are skipped; a stray close only lowers the count, and Handlebars reports it).
 *
 * @example
 * templateNesting('{{#if a}}{{#each b}}x{{/each}}{{/if}}') // 2
 */
export function templateNesting(template: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = template.indexOf('{{'); index !== -1; index = template.indexOf('{{', index + 2)) {
    if (index > 0 && template[index - 1] === '\\') continue;
    let start = index + 2;
    if (template[start] === '~') start++;
    const marker = template[start];
    if (marker === '!') {
      const close = template.startsWith('--', start + 1)
        ? template.indexOf('--}}', start)
        : template.indexOf('}}', start);
      if (close === -1) break;
      index = close;
      continue;
    }
    if (marker === '#' || (marker === '^' && /^\^\s*[^\s}~]/.test(template.slice(start, start + 3)))) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (marker === '/') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** The nesting bound, as a message, or undefined when the template is within it. */
function nestingProblem(template: string): string | undefined {
  const nesting = templateNesting(template);
  return nesting > maxTemplateNesting
    ? `blocks nest ${nesting} deep, more than ${maxTemplateNesting}, the limit of a template`
    : undefined;
}
// Handlebars counts `log` and `lookup` as known unless told otherwise; say so, so that the compiler refuses them.
const knownHelpers = {
  ...Object.fromEntries([...builtInHelpers, ...Object.keys(templateHelpers)].map((name) => [name, true])),
  log: false,
  lookup: false,
} as Record<string, boolean>;

const compileOptions = {
  strict: true,
  noEscape: true,
  knownHelpers,
  knownHelpersOnly: true,
} as const;

const runtimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
} as const;

// Pure function of content across runs: a compiled template, by its source text.
const cache = new Map<string, HandlebarsTemplateDelegate>();
// Pure function of content across runs: a template's syntax verdict, by its source text.
const checked = new Map<string, string | undefined>();

/**
 * Compiles a template once and renders it over plain data. Throws a Handlebars error when the template
 * is malformed, names an unknown helper or reads a missing value (strict mode).
 *
 * @example
 * renderTemplate('Hi {{context.user}}', { context: { user: 'Ann' } }) // 'Hi Ann'
 */
export function renderTemplate(template: string, data: unknown): string {
  let compiled = cache.get(template);
  if (!compiled) {
    const problem = nestingProblem(template);
    if (problem) throw new Error(problem);
    compiled = sandbox.compile(template, compileOptions);
    if (cache.size > 2_000) cache.clear();
    cache.set(template, compiled);
  }
  budget.steps = 0;
  budget.characters = 0;
  return compiled(data, runtimeOptions);
}

/**
 * Parses a template without rendering it, to report syntax errors and unknown helpers early.
 *
 * @example
 * checkTemplate('{{#each skills}}{{id}}{{/each}}') // undefined (fine)
 */
export function checkTemplate(template: string): string | undefined {
  if (checked.has(template)) return checked.get(template);
  let problem: string | undefined;
  try {
    problem = nestingProblem(template);
    if (problem) throw new Error(problem);
    sandbox.precompile(template, compileOptions);
    problem = findPartial(Handlebars.parse(template));
  } catch (error) {
    problem = error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
  if (checked.size > 2_000) checked.clear();
  checked.set(template, problem);
  return problem;
}

type AstNode = { type: string; [key: string]: unknown };

/** No partial is ever registered, so `{{> name}}` could only fail at render time: say so at check time. */
function findPartial(program: unknown): string | undefined {
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop() as AstNode | undefined;
    if (!node || typeof node !== 'object') continue;
    if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') {
      const name = (node.name as { original?: unknown } | undefined)?.original;
      return `partials are not supported: {{> ${String(name)}}} names no template (write the text in place)`;
    }
    if (node.type === 'DecoratorBlock' || node.type === 'Decorator') return 'decorators are not supported';
    for (const key of ['body', 'program', 'inverse'] as const) {
      const child = node[key];
      if (Array.isArray(child)) stack.push(...child);
      else if (child) stack.push(child);
    }
  }
  return undefined;
}

/** Blocks whose body reads another context (an item, a sub-object): its names are not the root's. */
const contextBlocks = new Set(['each', 'with']);

/**
 * The names a template reads from the root of its data, outside `#each` / `#with` bodies (helper names and
 * `@data` variables excluded). Throws on a template that does not parse.
 *
 * @example
 * templateVariables('Too long ({{length}}/{{max}}). {{#each found}}{{this}}{{/each}}') // ['found', 'length', 'max']
 */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const current = node as AstNode;
    switch (current.type) {
      case 'Program':
        for (const statement of current.body as unknown[]) visit(statement);
        return;
      case 'PathExpression': {
        const path = current as unknown as { data: boolean; depth: number; parts: string[]; head?: unknown };
        if (!path.data && path.depth === 0 && path.parts.length > 0) names.add(path.parts[0]!);
        return;
      }
      case 'MustacheStatement':
      case 'SubExpression':
      case 'BlockStatement': {
        const call = current as unknown as {
          path: AstNode & { original?: string; parts?: string[] };
          params: unknown[];
          hash?: { pairs: Array<{ value: unknown }> };
          program?: unknown;
          inverse?: unknown;
        };
        const head = call.path.type === 'PathExpression' ? call.path.parts?.[0] : undefined;
        const isHelper =
          head !== undefined &&
          (Object.hasOwn(templateHelpers, head) ||
            ['if', 'unless', 'each', 'with'].includes(head) ||
            call.params.length > 0 ||
            (call.hash?.pairs.length ?? 0) > 0);
        if (!isHelper) visit(call.path);
        for (const param of call.params) visit(param);
        for (const pair of call.hash?.pairs ?? []) visit(pair.value);
        if (!(head && contextBlocks.has(head))) visit(call.program);
        visit(call.inverse);
        return;
      }
      default:
        return;
    }
  };
  visit(Handlebars.parse(template));
  return [...names].sort();
}
