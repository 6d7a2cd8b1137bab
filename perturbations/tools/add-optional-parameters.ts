// perturbations/tools/add-optional-parameters.ts — adds optional, unused parameters (locale, verbose, request_id, …) to tools; existing parameters, `required`, calls and arguments stay.

import { z } from 'zod';
import {
  addedCount,
  affectedCount,
  defineOperator,
  harnessTextLocations,
  identifierWords,
  identityRelabel,
  isRecord,
  rootArgumentKeys,
  type Tool,
  type Trajectory,
  takenNames,
} from '../../src/kit/index.js';
import { rulesOnTime } from './_time-rules.js';

/** Plausible optional parameters whose absence leaves a call's meaning as it is. */
export const optionalParameterPool: ReadonlyArray<readonly [string, Record<string, unknown>]> = Object.freeze(
  [
    [
      'locale',
      {
        type: 'string',
        pattern: '^[a-z]{2}(-[A-Z]{2})?$',
        description:
          'BCP 47 language tag for human-readable text in the result, e.g. "en-US"; the default locale when omitted.',
      },
    ],
    ['verbose', { type: 'boolean', default: false, description: 'Add diagnostic fields to the result.' }],
    [
      'request_id',
      {
        type: 'string',
        maxLength: 64,
        description: 'Client-chosen id to trace this call in logs; does not change the result.',
      },
    ],
    [
      'include_details',
      { type: 'boolean', default: false, description: 'Include secondary fields in the result.' },
    ],
    [
      'timezone',
      {
        type: 'string',
        description: 'IANA time zone for timestamps in the result, e.g. "Asia/Shanghai".',
      },
    ],
    ['response_format', { type: 'string', enum: ['json', 'text'], description: 'Shape of the result.' }],
    ['client_version', { type: 'string', description: 'Version of the calling client, for logs only.' }],
    [
      'fields',
      {
        type: 'array',
        items: { type: 'string' },
        uniqueItems: true,
        description: 'Return only these top-level fields of the result; all fields when omitted.',
      },
    ],
    ['trace', { type: 'boolean', default: false, description: 'Record a debug trace of this call.' }],
  ],
);

/**
 * What each pool parameter controls, as words: a tool with a parameter of its own that holds one of them
 * (`detail`, `minimal_output`, `return_content`) already controls that, and a second control would leave
 * the reader unsure which one wins. (No pool parameter promises behaviour a server would have to keep, such
 * as a retry being safe to repeat: every one can be ignored by the tool.)
 */
const controls: Readonly<Record<string, readonly string[]>> = {
  // A time zone of the tool's own already says where its times are read (`get_current_time(timezone)`).
  locale: ['locale', 'language', 'lang', 'languages', 'timezone', 'tz'],
  verbose: ['verbose', 'verbosity', 'detail', 'details', 'detailed', 'minimal', 'output', 'debug'],
  request_id: ['request', 'trace', 'correlation'],
  include_details: ['detail', 'details', 'detailed', 'verbose', 'minimal', 'full', 'include'],
  timezone: ['timezone', 'tz', 'zone', 'time'],
  response_format: ['format', 'output', 'response', 'content', 'return', 'mode'],
  client_version: ['client', 'version'],
  fields: ['field', 'fields', 'select', 'projection', 'columns', 'properties'],
  trace: ['trace', 'debug', 'verbose'],
};

/** Verbs a tool that reads opens its name or description with, as written there ("Returns the list of …"). */
const readVerbs = new Set(
  [
    'get gets list lists search searches find finds read reads fetch fetches lookup look looks query queries',
    'show shows describe describes retrieve retrieves view views count counts browse browses check checks',
    'return returns open opens',
  ]
    .join(' ')
    .split(' '),
);

/**
 * A description that says the tool asks the user ("request additional essential information from the user",
 * BFCL's `getDetails`): its result is the user's answer, not records a locale or a field list could shape.
 */
const asksTheUser =
  /\b(?:ask|asks|prompt|prompts|request|requests|query|queries)\b[^.]*?\b(?:from|of)\s+the\s+user\b/iu;

/**
 * Whether a tool only reads: its MCP annotation says so (`readOnlyHint`), or, without one, its name or its
 * description opens with a verb of reading (`get_order`, "Returns the list of …"), and it does not ask the
 * user (`asksTheUser`).
 */
function readsOnly(tool: Tool): boolean {
  const hint = tool.annotations?.readOnlyHint;
  if (typeof hint === 'boolean') return hint;
  if (asksTheUser.test(tool.description)) return false;
  const [nameVerb] = identifierWords(tool.name);
  const [descriptionVerb] = tool.description.toLowerCase().match(/\p{L}+/u) ?? [];
  return [nameVerb, descriptionVerb].some((word) => word !== undefined && readVerbs.has(word));
}

/** A result of fields: an object output schema, or a description that speaks of records, details or JSON. */
const returnsFields = (tool: Tool) =>
  tool.outputSchema?.type === 'object' ||
  /\b(?:json|fields?|records?|objects?|details|detailed|metadata|entries|list of|array)\b/iu.test(
    tool.description,
  );

/**
 * Whether a tool's texts (its description, its parameters' names and descriptions) speak of times, so that a
 * time zone for them means something there: a word for a point in time (`date`, `timestamp`, `deadline`,
 * "start time", "ISO 8601"), a time filter's name (`created_after`, `updated_since`, `until`), or a time a
 * record holds ("created at", "last modified"). A verb of the same words is not enough, nor an idiom: "a
 * pending review is created" (GitHub's `pull_request_review_write`), "just log the thought" (OpenHands'
 * `think`), "one command at a time", "wait for the given time (in milliseconds)", "the previous page in
 * history" hold no time of day.
 */
const speaksOfTime = (tool: Tool) =>
  timeWords.test(toolTexts(tool)) || [...parameterWords(tool)].some((word) => timeParameterWords.has(word));

/** Words and phrases that speak of points in time in a tool's texts. */
const timeWords =
  /(?<!\b(?:up|out)[ -](?:to|of)[ -])\b(?:dates?|datetimes?|timestamps?|time[ -]?zones?|deadlines?|schedul(?:e|es|ed|ing)|(?:start|end|due|creation|modification|commit|event|local|current|expiry|expiration|arrival|departure)[ \t]+times?|times?[ \t]+of[ \t]+(?:day|creation|the)|ISO[ \t-]?8601|(?:created|updated|modified|changed|edited|deleted)[ \t]+(?:at|on|since|before|after)|last[ \t]+(?:modified|updated|changed|edited|seen|active))\b/iu;

/** Words of a parameter's name that make it a time or a time filter (`created_after`, `since`). */
const timeParameterWords = new Set(
  'time times date dates datetime timestamp timestamps created updated modified since until schedule deadline'.split(
    ' ',
  ),
);

/**
 * A tool's description and its own parameters' descriptions: what it says it takes and returns. An object's
 * fields deeper down are input ("Use for text, number, and date fields", in GitHub's `issue_write`), not times
 * of the result.
 */
function toolTexts(tool: Tool): string {
  const properties = isRecord(tool.parameters.properties) ? Object.values(tool.parameters.properties) : [];
  const described = properties.flatMap((property) =>
    isRecord(property) && typeof property.description === 'string' ? [property.description] : [],
  );
  return [tool.description, ...described].join('\n');
}

/** The pool parameters that shape a tool's result: a tool takes one only where none of its own shapes it. */
const resultShaping = ['fields', 'response_format', 'include_details', 'verbose'] as const;

/**
 * Which tools each pool parameter fits, where not all do: the shape of a result (`fields`, `response_format`,
 * `include_details`, `verbose`'s diagnostic fields) only where a tool reads and returns fields (no `fields` on
 * `write_file`, on a fetch that returns a page's text, or on a `think` that only logs), the language of a
 * result's text only where a tool reads, a time zone for timestamps only where a tool speaks of times (none
 * on `create_directory`).
 */
/**
 * A tool whose description opens with a verb of computing ("Calculates the time headway …", BFCL's
 * `get_time_headway`): it returns a computed value, not records, whatever its name says or its text speaks of
 * ("the closest leading object").
 */
const computes = (tool: Tool) =>
  /^\s*(?:calculates?|computes?|estimates?|predicts?|converts?|evaluates?|solves?|determines?)\b/iu.test(
    tool.description,
  );

/** A tool that reads and returns fields, and computes no value: what a parameter shaping its result needs. */
const readsFields = (tool: Tool) => readsOnly(tool) && returnsFields(tool) && !computes(tool);
const fits: Readonly<Record<string, (tool: Tool) => boolean>> = {
  fields: readsFields,
  response_format: readsFields,
  include_details: readsFields,
  verbose: readsFields,
  locale: readsOnly,
  timezone: speaksOfTime,
};

/** The words of a tool's own parameter names: what `controls` is compared with. */
const parameterWords = (tool: Tool) =>
  new Set(
    Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {}).flatMap(
      identifierWords,
    ),
  );

/**
 * Root keywords that constrain every key or may reject a new one: names (`propertyNames`,
 * `patternProperties`), or subschemas that see the whole object (a branch with `additionalProperties: false`
 * would refuse the new property, a `$ref` may point anywhere).
 */
const rootConstraints = [
  'propertyNames',
  'patternProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  '$ref',
];

/**
 * Whether new optional properties can be added at the root of this tool's schema. The root must be an
 * object schema whose `additionalProperties` is absent, `true` or `false`: with a schema there, the tool
 * author constrained every extra key, and a new property would bypass that constraint. No root keyword may
 * constrain the names or see the whole object (`rootConstraints`): the new property could not be sent.
 */
function accepts(tool: Tool): boolean {
  const { parameters } = tool;
  const additional = parameters.additionalProperties;
  if (!(additional === undefined || typeof additional === 'boolean')) return false;
  if (rootConstraints.some((keyword) => Object.hasOwn(parameters, keyword))) return false;
  return parameters.properties === undefined || isRecord(parameters.properties);
}

/**
 * What the harness may already rule on for a pool parameter: a harness whose texts speak of time zones or fix
 * the current time ("All times in the database are EST", a `{{context.timezone}}`) has its own zone.
 */
const ruledOn: Readonly<Record<string, (text: string) => boolean>> = { timezone: rulesOnTime };

/**
 * The pool names free for each tool: not a harness identifier, not written as code in a text
 * (`` `locale` `` or `tool.locale` would become a mention), not a topic the harness already rules on
 * (`ruledOn`), not a key the tool's calls use, not what a parameter of the tool already controls
 * (`controls`). Linear in the input: the texts are scanned once for the whole pool (a pool name written in a
 * text is taken for every tool), and the trajectory's calls once for every tool, never once per tool.
 */
function freeNamesByTool(
  tools: readonly Tool[],
  trajectory: Trajectory | undefined,
  taken: ReadonlySet<string>,
  texts: readonly string[],
): Map<string, Array<(typeof optionalParameterPool)[number]>> {
  const written = new Set<string>();
  for (const text of texts)
    for (const [name] of optionalParameterPool)
      if (
        !written.has(name) &&
        (text.includes(`\`${name}\``) || text.includes(`.${name}`) || ruledOn[name]?.(text))
      )
        written.add(name);
  const open = optionalParameterPool.filter(([name]) => !taken.has(name) && !written.has(name));
  const used = rootArgumentKeys(trajectory);
  const free = new Map<string, Array<(typeof optionalParameterPool)[number]>>();
  for (const tool of tools) {
    const keys = used.get(tool.name);
    const words = parameterWords(tool);
    // A word of the tool's parameters that starts with a control word counts (`start_timestamp` controls time).
    const ownControl = (name: string) =>
      (controls[name] ?? []).some((control) => [...words].some((word) => word.startsWith(control)));
    // A parameter of the tool that shapes its result in one way (`fields`: "Subset of fields to return")
    // leaves no room for another: `include_details` (default false) would contradict "If omitted, all fields
    // are returned".
    const shaped = resultShaping.some(ownControl);
    const controlled = (name: string) =>
      ownControl(name) || (shaped && (resultShaping as readonly string[]).includes(name));
    free.set(
      tool.name,
      open.filter(([name]) => !keys?.has(name) && !controlled(name) && (fits[name]?.(tool) ?? true)),
    );
  }
  return free;
}

/**
 * Adds optional parameters that the trajectory does not use (never listed in `required`) to a share
 * (= severity, at least one) of the tools: 1 to 3 each, growing with severity, from a pool of plausible
 * names (`locale`, `verbose`, `request_id`, `include_details`, …). A name is skipped when it is an
 * identifier of the harness, appears in any of its texts, names what the harness already rules on (no
 * `timezone` where a text says "All times are EST" or "The current time is …"), is a key of the tool's calls in the
 * trajectory (an extra key already there would change validity), or controls what a parameter of the tool
 * already does (no `verbose` beside a `detail` enum, no `response_format` beside `return_content`, no
 * parameter shaping the result beside one of the tool's own: no `include_details` beside `fields`), or does
 * not fit the tool (`fields`, `response_format`, `include_details` and `verbose` only on a tool that reads and
 * returns fields, `locale` only on one that reads, `timezone` only on one whose texts speak of times, not
 * through a verb such as "created" or "log", no `locale` beside a time zone of the tool's own). Tools
 * whose `additionalProperties` is a schema are left alone: every extra key is constrained there, and a new
 * property would bypass that constraint.
 *
 * @example
 * const applied = await applyOperator(addOptionalParameters, harness, { rng: 'seed', severity: 0.5 });
 * // hold_seat gains `locale` (string, optional); calls without it stay valid
 */
export const addOptionalParameters = defineOperator({
  id: 'tools/add-optional-parameters',
  // 2: leaves alone a root that constrains names or sees the whole object (`rootConstraints`).
  // 4: no `timezone` ("UTC when omitted") for a harness whose texts speak of time zones (`ruledOn`).
  // 5: no `idempotency_key` (it said a retry was safe); nothing a parameter of the tool controls already.
  // 6: no default a result could contradict (`timezone` "UTC when omitted" over `+0200` dates); a parameter
  // word that starts with a control word counts (`start_timestamp` controls time); "The current time is …"
  // rules on time.
  // 7: a parameter only where it fits the tool (`fits`): the shape of a result where a tool reads and returns
  // fields, a locale where it reads, a time zone where it speaks of times, no `locale` beside a zone of its own;
  // a text that says how the agent learns the date ("see what year it is") rules on time.
  // 8: a tool speaks of times through a word for a time or a time filter, not a verb ("a review is created",
  // "log the thought"), its parameters' descriptions read too; no result-shaping parameter on a tool with one
  // of its own (no `include_details` beside `fields`, "Subset of fields to return").
  // 9: one result-shaping parameter per tool at most (BFCL's `fetchPerson` took `fields` and `include_details`,
  // which contradict); none on a tool that computes ("Calculates the time headway …": BFCL's `get_time_headway`
  // took `fields`); a tool that asks the user reads nothing (BFCL's `getDetails` took `response_format`).
  version: 9,
  dimension: 'tools',
  mode: 'exact',
  description: 'Adds optional unused parameters to tools; existing parameters and calls stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory }) {
    const taken = takenNames(harness);
    const texts = harnessTextLocations(harness).map((location) => location.text);
    const free = freeNamesByTool(harness.tools.items, trajectory, taken, texts);
    const candidates = harness.tools.items.filter(
      (tool) => accepts(tool) && (free.get(tool.name) ?? []).length > 0,
    );
    if (candidates.length === 0) return { skip: 'no tool can take a new optional parameter' };
    const count = affectedCount(severity, candidates.length);
    const perTool = addedCount(severity, 3);
    const chosen = new Set(
      rng
        .fork('choose')
        .sample(candidates, count)
        .map((tool) => tool.name),
    );
    const items = harness.tools.items.map((tool) => {
      if (!chosen.has(tool.name)) return tool;
      const local = rng.fork(`tool-${tool.name}`);
      // One parameter that shapes the result at most: `fields` ("all fields when omitted") beside
      // `include_details` ("secondary fields", default false) would contradict it.
      let shaping = false;
      const added = local.sample(free.get(tool.name) ?? [], perTool).filter(([name]) => {
        if (!(resultShaping as readonly string[]).includes(name)) return true;
        if (shaping) return false;
        shaping = true;
        return true;
      });
      const properties = { ...((tool.parameters.properties as Record<string, unknown> | undefined) ?? {}) };
      // Each new property goes to a random position, so that "extra parameters come last" is not a cue.
      const entries = Object.entries(properties);
      for (const [name, schema] of added)
        entries.splice(local.int(0, entries.length), 0, [name, structuredClone(schema)]);
      return { ...tool, parameters: { ...tool.parameters, properties: Object.fromEntries(entries) } };
    });
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
