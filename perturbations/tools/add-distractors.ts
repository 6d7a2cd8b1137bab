// perturbations/tools/add-distractors.ts — adds unused, domain-neutral distractor tools at random registry positions; existing tools, calls and arguments stay.

import { z } from 'zod';
import {
  addedCount,
  defineOperator,
  firstClause,
  functionWords,
  harnessTextLocations,
  identifierWords,
  identityRelabel,
  occursAsWord,
  type Tool,
  type Trajectory,
  takenNames,
  trajectoryCalls,
} from '../../src/kit/index.js';
import { rulesOnTime } from './_time-rules.js';

// Functions, not shared objects: two properties must never hold the same schema object.
const currency = () => ({
  type: 'string',
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 currency code, e.g. "EUR".',
});
const country = () => ({
  type: 'string',
  pattern: '^[A-Z]{2}$',
  description: 'ISO 3166-1 alpha-2 country code, e.g. "BR".',
});

/** Realistic tools that no domain's task needs, each with a real JSON Schema. */
export const distractorPool: readonly Tool[] = Object.freeze([
  {
    name: 'get_weather',
    description: 'Current weather and a short forecast for a place.',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', minLength: 1, description: 'City or place name, e.g. "Lisbon".' },
        units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
        days: { type: 'integer', minimum: 1, maximum: 7, description: 'Days of forecast to include.' },
      },
      required: ['location'],
      additionalProperties: false,
    },
  },
  {
    name: 'translate_text',
    description: 'Translates a text into another language.',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 5000 },
        target_language: {
          type: 'string',
          pattern: '^[a-z]{2}(-[A-Z]{2})?$',
          description: 'BCP 47 language tag, e.g. "de" or "pt-BR".',
        },
        source_language: { type: 'string', description: 'Detected automatically when omitted.' },
      },
      required: ['text', 'target_language'],
      additionalProperties: false,
    },
  },
  {
    name: 'convert_currency',
    description: 'Converts an amount of money from one currency to another at the latest rate.',
    parameters: {
      type: 'object',
      properties: {
        amount: { type: 'number', exclusiveMinimum: 0 },
        from_currency: currency(),
        to_currency: currency(),
      },
      required: ['amount', 'from_currency', 'to_currency'],
      additionalProperties: false,
    },
  },
  {
    name: 'send_email',
    description: 'Sends an email from the assistant account.',
    parameters: {
      type: 'object',
      properties: {
        to: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1, maxItems: 20 },
        subject: { type: 'string', maxLength: 200 },
        body: { type: 'string', description: 'Plain-text message body.' },
        cc: { type: 'array', items: { type: 'string', format: 'email' } },
      },
      required: ['to', 'subject', 'body'],
      additionalProperties: false,
    },
  },
  {
    name: 'create_calendar_event',
    description: 'Creates an event in the assistant calendar and invites the attendees.',
    parameters: {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1 },
        start: { type: 'string', format: 'date-time', description: 'ISO 8601 start time.' },
        end: { type: 'string', format: 'date-time', description: 'ISO 8601 end time.' },
        attendees: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              email: { type: 'string', format: 'email' },
              optional: { type: 'boolean', default: false },
            },
            required: ['email'],
            additionalProperties: false,
          },
        },
        location: { type: 'string' },
      },
      required: ['title', 'start', 'end'],
      additionalProperties: false,
    },
  },
  {
    name: 'search_web',
    description: 'Searches the public web and returns the top results with titles and snippets.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        max_results: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
        safe_search: { type: 'boolean', default: true },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
  {
    name: 'get_exchange_rate',
    description: 'Exchange rate between two currencies, today or on a past date.',
    parameters: {
      type: 'object',
      properties: {
        base: currency(),
        quote: currency(),
        date: {
          type: 'string',
          pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          description: 'YYYY-MM-DD; today when omitted.',
        },
      },
      required: ['base', 'quote'],
      additionalProperties: false,
    },
  },
  {
    name: 'lookup_timezone',
    description: 'Time zone and current local time of a city or coordinates.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        coordinates: {
          type: 'object',
          properties: {
            latitude: { type: 'number', minimum: -90, maximum: 90 },
            longitude: { type: 'number', minimum: -180, maximum: 180 },
          },
          required: ['latitude', 'longitude'],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'get_stock_quote',
    description: 'Latest trading price of a listed company share.',
    parameters: {
      type: 'object',
      properties: {
        symbol: { type: 'string', pattern: '^[A-Z.]{1,6}$', description: 'Ticker, e.g. "AAPL".' },
      },
      required: ['symbol'],
      additionalProperties: false,
    },
  },
  {
    name: 'calculate_expression',
    description: 'Evaluates an arithmetic expression and returns the result.',
    parameters: {
      type: 'object',
      properties: {
        expression: { type: 'string', minLength: 1, maxLength: 500, description: 'e.g. "(12.5 * 4) / 3".' },
        precision: { type: 'integer', minimum: 0, maximum: 12, default: 2 },
      },
      required: ['expression'],
      additionalProperties: false,
    },
  },
  {
    name: 'set_reminder',
    description: 'Sets a reminder that notifies the assistant owner at a given time.',
    parameters: {
      type: 'object',
      properties: {
        message: { type: 'string', minLength: 1 },
        remind_at: { type: 'string', format: 'date-time' },
        repeat: { type: 'string', enum: ['none', 'daily', 'weekly', 'monthly'], default: 'none' },
      },
      required: ['message', 'remind_at'],
      additionalProperties: false,
    },
  },
  {
    name: 'get_news_headlines',
    description: 'Top news headlines, optionally for a topic or a country.',
    parameters: {
      type: 'object',
      properties: {
        topic: { type: 'string', enum: ['world', 'business', 'technology', 'science', 'sports', 'health'] },
        country: country(),
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'get_directions',
    description: 'Route, distance and travel time between two places.',
    parameters: {
      type: 'object',
      properties: {
        origin: { type: 'string', minLength: 1 },
        destination: { type: 'string', minLength: 1 },
        mode: { type: 'string', enum: ['driving', 'walking', 'transit', 'cycling'], default: 'driving' },
      },
      required: ['origin', 'destination'],
      additionalProperties: false,
    },
  },
  {
    name: 'shorten_url',
    description: 'Creates a short link for a URL.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri', maxLength: 2048 } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  {
    name: 'get_public_holidays',
    description: 'Public holidays of a country in a year.',
    parameters: {
      type: 'object',
      properties: { country: country(), year: { type: 'integer', minimum: 1900, maximum: 2100 } },
      required: ['country', 'year'],
      additionalProperties: false,
    },
  },
  {
    name: 'define_word',
    description: 'Dictionary definitions and example sentences of a word.',
    parameters: {
      type: 'object',
      properties: {
        word: { type: 'string', minLength: 1, maxLength: 60 },
        language: { type: 'string', pattern: '^[a-z]{2}$', default: 'en' },
      },
      required: ['word'],
      additionalProperties: false,
    },
  },
  {
    name: 'generate_qr_code',
    description: 'Generates a QR code image for a text or link and returns its URL.',
    parameters: {
      type: 'object',
      properties: {
        data: { type: 'string', minLength: 1, maxLength: 1000 },
        size_px: { type: 'integer', minimum: 64, maximum: 1024, default: 256 },
      },
      required: ['data'],
      additionalProperties: false,
    },
  },
]);

/** Verbs of tool names: they say what a tool does, not what it is about. */
const verbs = new Set(
  'get set find search lookup look create generate send define calculate convert translate shorten list fetch make'.split(
    ' ',
  ),
);
/** Content words, lower-case, plural or third-person `s` cut (`returns`, `results` → `return`, `result`). */
const contentWords = (words: readonly string[]) =>
  words
    .filter((word) => word.length > 1 && !functionWords.has(word))
    .map((word) => (word.length > 3 && /[^su]s$/u.test(word) ? word.slice(0, -1) : word));
const nameWords = (name: string) => contentWords(identifierWords(name));
const textWords = (text: string | undefined) =>
  contentWords((text ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * The look-alike rule, in one place: a distractor could do a registry tool's job, and is refused, when its
 * name or description holds one of that tool's job words. A tool's job words are its name's topic words
 * (verbs left out, `weather` of `weather_forecast`); when its name is only verbs (`calculate`), its whole
 * name and the first clause of its description (`calculate`, `result`, `mathematical`, `expression`).
 */
function jobWords(tool: Tool): string[] {
  const name = nameWords(tool.name);
  const topics = name.filter((word) => !verbs.has(word));
  return topics.length > 0 ? topics : [...name, ...textWords(firstClause(tool.description))];
}
/** A tool's parameter names at the root of its schema. */
const argumentNames = (tool: Tool) =>
  new Set(Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {}).map(roleOf));

/**
 * An argument's role where names differ for the same thing: where a trip starts and where it ends
 * (`departure_city` and `arrival_city` take `get_directions`' `origin` and `destination`), else the name.
 */
function roleOf(name: string): string {
  const words = identifierWords(name);
  const has = (list: readonly string[]) => words.some((word) => list.includes(word));
  // "from" and "to" (alone) name a place, or with a word for one; "source", "start", "target" and "end" only
  // with such a word (`start_city`, not a calendar event's `start`); never `from_currency`.
  const place = has(placeWords);
  const alone = words.length === 1;
  if (
    has(['origin', 'departure', 'depart']) ||
    ((place || alone) && has(['from'])) ||
    (place && has(['source', 'start']))
  )
    return 'origin';
  if (
    has(['destination', 'arrival', 'arrive']) ||
    ((place || alone) && has(['to'])) ||
    (place && has(['target', 'end']))
  )
    return 'destination';
  return name;
}
const placeWords = ['city', 'airport', 'location', 'place', 'address', 'station', 'port', 'country', 'stop'];

/**
 * Whether a pool tool takes two or more arguments that one registry tool takes too, by role (`roleOf`):
 * called the same way (`get_directions(origin, destination)` beside `search_direct_flight(origin,
 * destination, date)` or `get_flight_information(departure_city, arrival_city)`), it competes for that
 * tool's calls whatever its words say.
 */
function takesArgumentsOf(tool: Tool, registry: ReadonlyArray<ReadonlySet<string>>): boolean {
  const own = [...argumentNames(tool)];
  return registry.some((names) => own.filter((name) => names.has(name)).length >= 2);
}

/**
 * What each pool tool does, in the words a text uses for it (lower case; a final `s` may follow each). A
 * harness whose texts speak of it (an agent told to "look things up on the web" beside `search_web`, one that
 * "coordinates meetings" beside `create_calendar_event`), or an example whose user or assistant does, would
 * find in the tool a plausible way to the task: a competitor, not a distractor.
 */
export const capabilityWords: Readonly<Record<string, readonly string[]>> = {
  get_weather: ['weather', 'forecast'],
  translate_text: ['translate', 'translation', 'translator'],
  convert_currency: ['currency', 'currencies', 'exchange rate'],
  send_email: ['email', 'e-mail', 'inbox'],
  create_calendar_event: ['calendar', 'meeting', 'appointment', 'scheduling'],
  search_web: ['web', 'internet', 'online', 'search engine', 'google'],
  get_exchange_rate: ['exchange rate', 'currency', 'currencies'],
  lookup_timezone: ['time zone', 'timezone'],
  get_stock_quote: ['stock', 'share price', 'ticker'],
  // The operations too: a harness that multiplies or subtracts (BFCL's `multiply`, `sub`) does arithmetic.
  calculate_expression: [
    'calculator',
    'arithmetic',
    'calculate',
    'addition',
    'subtract',
    'subtraction',
    'subtracts',
    'multiply',
    'multiplies',
    'multiplication',
    'divide',
    'divides',
    'division',
    'sum',
  ],
  // An alarm notifies the owner at a time as a reminder does (BFCL's `set_alarm` takes a `purpose`).
  set_reminder: ['reminder', 'remind', 'alarm'],
  get_news_headlines: ['news', 'headline'],
  get_directions: ['directions', 'route', 'navigation'],
  shorten_url: ['short link', 'shorten', 'url shortener'],
  get_public_holidays: ['holiday', 'public holidays'],
  define_word: ['dictionary', 'definition', 'define'],
  generate_qr_code: ['qr code', 'qr'],
};
const capabilityPatterns = new Map(
  Object.entries(capabilityWords).map(([name, words]) => [
    name,
    new RegExp(
      // Whole words of prose, not parts of an address, a path or a domain (`jane@google.com`).
      `(?<![\\p{L}\\p{N}_@./-])(?:${words.map((word) => word.replace(/ /gu, '\\s+')).join('|')})s?(?![\\p{L}\\p{N}_@/-]|\\.[\\p{L}\\p{N}])`,
      'iu',
    ),
  ]),
);
/** Whether a text speaks of what the pool tool `name` does (`capabilityWords`). */
const speaksOf = (text: string, name: string) => capabilityPatterns.get(name)?.test(text) ?? false;

/** The user's and the assistant's own words in a trajectory (not tool results, which are data). */
const conversationTexts = (trajectory: Trajectory | undefined): string[] =>
  (trajectory?.messages ?? []).flatMap((message) =>
    (message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string'
      ? [message.content]
      : [],
  );

/** Pool tools that bring their own clock or zone: refused where a text rules on time (`rulesOnTime`). */
const bringsAClock = new Set(['lookup_timezone']);

/** The words of each pool tool's name and description, which a registry tool's job words must not meet. */
const offeredWords = new Map(
  distractorPool.map((tool) => [tool, [...nameWords(tool.name), ...textWords(tool.description)]]),
);

/**
 * Adds 1 to 4 (growing with severity) distractor tools from a built-in pool of realistic, domain-neutral
 * tools (weather, translation, currency, email, calendar, web search, …) at random positions of the
 * registry. A pool tool is never used when its name is an identifier of the harness or written in any of
 * its texts, when the trajectory calls it, or when it could do a registry tool's job: its name or
 * description holds a topic word of that tool's name (a `get_weather` next to a harness's `weather_forecast`
 * would compete with the gold call), or, for a name of verbs only, a word of its name or of its
 * description's first clause (no `calculate_expression` next to a `calculate` that evaluates expressions),
 * or it takes two arguments a registry tool takes (no `get_directions(origin, destination)` beside a flight
 * search). Where a text fixes the current time or a time zone ("The current time is 2024-05-15 15:00:00
 * EST"), no tool brings a clock of its own (`lookup_timezone`). Nor is a pool tool used whose capability a
 * text of the harness, or the example's user or assistant, speaks of (`search_web` for an agent told to "look
 * things up on the web", `get_weather` where the user asks about the weather): there it would be a plausible way
 * to the task, and the gold path one choice among two.
 *
 * @example
 * const applied = await applyOperator(addDistractors, harness, { rng: 'seed', severity: 0.5 });
 * // the registry gains e.g. translate_text and get_weather; the relabel is the identity
 */
export const addDistractors = defineOperator({
  id: 'tools/add-distractors',
  // 2: a distractor that could do a registry tool's job is refused, verb-only names (`calculate`) included.
  // 3: also one that takes two arguments a registry tool takes, and a clock where a text fixes the time.
  // 4: also one whose capability the harness's texts or the example's conversation speak of (a pool entry's
  // tools are checked against each example that draws it: `fitsExample`); a text that says how the agent
  // learns the date ("use the provided tools to see what year it is") rules on time; arguments compared by
  // role (`departure_city` is an origin).
  // 5: a harness that speaks of arithmetic operations ("Performs multiplication of two integers") draws no
  // `calculate_expression`, one that sets alarms no `set_reminder`.
  version: 5,
  dimension: 'tools',
  mode: 'exact',
  description: 'Adds unused domain-neutral distractor tools at random positions; existing tools stay.',
  params: z.object({
    count: z
      .number()
      .int()
      .min(1)
      .max(8)
      .optional()
      .describe('How many distractors to add; by default 1 to 4, growing with severity.'),
  }),
  apply(harness, { rng, severity, params, trajectory }) {
    const taken = takenNames(harness);
    const texts = harnessTextLocations(harness).map((location) => location.text);
    const called = new Set(trajectoryCalls(trajectory).map((call) => call.name));
    const jobs = new Set(harness.tools.items.flatMap(jobWords));
    const argumentSets = harness.tools.items.map(argumentNames);
    const timeRuled = texts.some(rulesOnTime);
    const spoken = [...texts, ...conversationTexts(trajectory)];
    const available = distractorPool.filter(
      (tool) =>
        !taken.has(tool.name) &&
        !called.has(tool.name) &&
        !texts.some((text) => occursAsWord(text, tool.name)) &&
        !(offeredWords.get(tool) ?? []).some((word) => jobs.has(word)) &&
        !takesArgumentsOf(tool, argumentSets) &&
        !(timeRuled && bringsAClock.has(tool.name)) &&
        !spoken.some((text) => speaksOf(text, tool.name)),
    );
    if (available.length === 0)
      return { skip: 'every pool tool collides with the harness or the trajectory' };
    const wanted = params.count ?? addedCount(severity, 4);
    const chosen = rng.fork('choose').shuffle(available).slice(0, wanted);
    const items = [...harness.tools.items];
    const positions = rng.fork('positions');
    for (const tool of chosen) items.splice(positions.int(0, items.length), 0, structuredClone(tool));
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
  // A pool entry is built without an example: its pool tools are checked against each example that draws it.
  fitsExample({ base, variant, trajectory }) {
    const own = new Set(base.tools.items.map((tool) => tool.name));
    const spoken = conversationTexts(trajectory);
    const competing = variant.tools.items.find(
      (tool) => !own.has(tool.name) && spoken.some((text) => speaksOf(text, tool.name)),
    );
    return competing ? `the example speaks of what ${competing.name} does` : undefined;
  },
});
