import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import {
  buildSymbolTable,
  findMentions,
  harnessSymbols,
  harnessTextLocations,
  mentionsOf,
  partTextLocations,
  type SymbolEntry,
  symbolTableScans,
} from '../../src/harness/symbol-table.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const harness = travelHarness();
const table = buildSymbolTable(harness);
const brief = (mentions: ReturnType<typeof mentionsOf>) =>
  mentions.map(({ path, start, end, form }) => ({ path: path.join('.'), text: '', start, end, form }));

describe('symbol table', () => {
  it('lists every identifier with where it is defined, in document order', () => {
    expect(
      table.symbols.map(
        (symbol) =>
          `${symbol.kind}:${symbol.tool ? `${symbol.tool}.` : ''}${symbol.parameterPath?.join('.') ?? symbol.name}`,
      ),
    ).toEqual([
      'tool:load_skill',
      'skill:rebooking',
      'skill:baggage',
      'skill:apology_first',
      'tool:find_flights',
      'parameter:find_flights.origin',
      'parameter:find_flights.destination',
      'parameter:find_flights.date',
      'parameter:find_flights.filters',
      'parameter:find_flights.filters.max_stops',
      'parameter:find_flights.filters.cabin',
      'tool:hold_seat',
      'parameter:hold_seat.flight',
      'parameter:hold_seat.passengers',
      'parameter:hold_seat.passengers.[].name',
      'tool:get_baggage_policy',
      'parameter:get_baggage_policy.fare_class',
      'section:role',
      'section:skills',
      'section:tools',
      'section:passenger',
      'hook:no_profanity',
      'hook:valid_arguments',
      'hook:tool_budget',
      'hook:reply_skill',
      'hook:short_reply',
      'hook:no_guarantees',
      'hook:grounded_numbers',
    ]);
    const maxStops = table.symbols.find((symbol) => symbol.name === 'max_stops');
    expect(maxStops?.definedAt).toEqual([
      'tools',
      'items',
      0,
      'parameters',
      'properties',
      'filters',
      'properties',
      'max_stops',
    ]);
  });

  it('finds tool mentions in skill bodies, in code form, with exact offsets', () => {
    const mentions = mentionsOf(table, 'tool', 'find_flights');
    expect(brief(mentions)).toEqual([
      { path: 'skills.items.0.body', text: '', start: 8, end: 20, form: 'code' },
      { path: 'skills.items.0.body', text: '', start: 74, end: 86, form: 'code' },
    ]);
    const body = harness.skills.items[0]!.body;
    for (const mention of mentions) expect(body.slice(mention.start, mention.end)).toBe('find_flights');
  });

  it('finds bare mentions of distinctive identifiers, as whole words only', () => {
    expect(brief(mentionsOf(table, 'skill', 'apology_first'))).toEqual([]);
    const symbols = harnessSymbols(harness);
    const found = findMentions(
      { path: [], text: 'Use apology_first; not apology_firsts or xapology_first' },
      symbols,
    );
    expect(found.map(({ name, start, form }) => [name, start, form])).toEqual([['apology_first', 4, 'bare']]);
  });

  it('takes plain words as mentions only in code form', () => {
    // "Pair it with rebooking." and "Answer baggage allowance questions" use words, not ids.
    expect(mentionsOf(table, 'skill', 'rebooking')).toEqual([]);
    expect(mentionsOf(table, 'skill', 'baggage')).toEqual([]);
    const found = findMentions({ path: [], text: 'then load `baggage`' }, harnessSymbols(harness));
    expect(found.map(({ name, start, form }) => [name, start, form])).toEqual([['baggage', 11, 'code']]);
  });

  it('takes a plain skill or tool name followed by the word of its kind as a mention', () => {
    const symbols: SymbolEntry[] = [
      { kind: 'skill', name: 'docx', definedAt: [] },
      { kind: 'tool', name: 'python', definedAt: [] },
      { kind: 'parameter', name: 'query', tool: 'python', definedAt: [] },
    ];
    const named = (text: string) =>
      findMentions({ path: [], text }, symbols).map(({ name, start, form }) => [name, start, form]);
    // As public skills write it: "view the docx skill", "the docx skill's soffice script".
    expect(named('Convert it first with the docx skill.')).toEqual([['docx', 26, 'bare']]);
    expect(named("Use the docx skill's script, then the python tool")).toEqual([
      ['docx', 8, 'bare'],
      ['python', 38, 'bare'],
    ]);
    // The word alone, the plural, a longer word and another kind's word stay prose.
    expect(named('Save it as docx. Good docx skills help. A docx skillset. The docx tool.')).toEqual([]);
    expect(named('the python toolkit, the query tool, the python-tool')).toEqual([]);
    // Chinese names the kind after a space too; 工具箱 (a toolbox) is not the tool.
    expect(named('先用 docx 技能转换，再调用 python 工具。python 工具箱')).toEqual([
      ['docx', 3, 'bare'],
      ['python', 17, 'bare'],
    ]);
  });

  it('finds parameters only in code form or qualified by their tool', () => {
    expect(mentionsOf(table, 'parameter', 'origin').map((mention) => mention.form)).toEqual(['code']);
    // "Hold a seat on a flight" uses the word, not the parameter.
    expect(mentionsOf(table, 'parameter', 'flight')).toEqual([]);
    const qualified = findMentions({ path: [], text: 'set hold_seat.flight first' }, harnessSymbols(harness));
    expect(qualified.map(({ kind, name, form }) => `${kind}:${name}:${form}`)).toEqual([
      'tool:hold_seat:bare',
      'parameter:flight:qualified',
    ]);
  });

  it('skips Handlebars code in templates but reads their prose', () => {
    // "{{context.passenger.name}}" is code; "Rebook a passenger" is prose about a person.
    expect(mentionsOf(table, 'section', 'passenger')).toEqual([]);
    expect(mentionsOf(table, 'tool', 'load_skill').map((mention) => mention.path.join('.'))).toEqual([
      'hooks.items.3.onFail.feedback',
    ]);
  });

  it('handles identifiers in other scripts and phrases', () => {
    const input = travelHarnessInput();
    input.skills.items[1]!.id = '行李 政策';
    input.skills.items[2]!.body = 'Use 行李 政策 after an apology.';
    const mentions = mentionsOf(buildSymbolTable(parseHarness(input)), 'skill', '行李 政策');
    expect(mentions.map((mention) => [mention.start, mention.end])).toEqual([[4, 9]]);
  });
});

describe('buildSymbolTable per part', () => {
  it('scans only the parts a new harness object holds anew, and finds what a whole scan finds', () => {
    const base = travelHarness();
    buildSymbolTable(base);
    // A step that turns a hook off: new hooks, the same skills, prompt and tools, the same identifiers.
    const variant: Harness = {
      ...base,
      hooks: {
        ...base.hooks,
        items: base.hooks.items.map((hook, index) => (index === 0 ? { ...hook, enabled: false } : hook)),
      },
    };
    const before = symbolTableScans();
    const table = buildSymbolTable(variant);
    expect(symbolTableScans() - before).toBe(partTextLocations(variant, 'hooks').length);
    const fresh = buildSymbolTable(structuredClone(variant));
    expect(table.mentions).toEqual(fresh.mentions);
    // A new identifier reads every part again: a text may mention it.
    const renamed: Harness = {
      ...base,
      tools: {
        ...base.tools,
        items: base.tools.items.map((tool, index) =>
          index === 0 ? { ...tool, name: 'lookup_flights' } : tool,
        ),
      },
    };
    const again = symbolTableScans();
    expect(buildSymbolTable(renamed).mentions).toEqual(buildSymbolTable(structuredClone(renamed)).mentions);
    expect(symbolTableScans() - again).toBe(2 * harnessTextLocations(renamed).length);
  });
});
