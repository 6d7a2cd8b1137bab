// Renames of public tools as they ship (test/perturbations/fixtures/README.md: unedited lines of BFCL's
// multi_turn_func_doc/trading_bot.json and travel_booking.json, tools of GitHub's MCP server). A harness may
// offer any of them, alone or together; a rename is certified as the same task, so no listed synonym may name
// another thing there:
// `get_order_history` lists sell orders too (never `get_purchase_history`), `place_order`'s `order_type` is
// Buy/Sell (never `order_category`), a price per share is no cost, a travel class no tier, a date no day (a
// card's expiration date has none), a cardholder's name no label, a message to support no text; GitHub's
// sort `order` (asc/desc) is no purchase, its search `query` (search syntax with qualifiers) no text or
// keywords, a commit message no text.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renameTools } from '../../../perturbations/tools/rename.js';
import { renameParameters } from '../../../perturbations/tools/rename-parameters.js';
import { identifierWords } from '../../../src/augment/identifier-words.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { importMcpTools } from '../../../src/harness/importers/mcp-tools.js';
import type { Tool } from '../../../src/harness/schema.js';
import { bfclTools, toolsHarness as helpedHarness } from '../../support/bfcl-tools.js';
import { projectRoot } from '../../support/run-cli.js';

const fixture = (file: string) => readFile(join(projectRoot, 'test/perturbations/fixtures', file), 'utf8');
const toolsHarness = (tools: Tool[]) => helpedHarness(tools, 'You manage a workspace.');

/**
 * Every new name both renaming operators draw over seeds and styles, for each tool alone and for all tools
 * together: `tool` for a tool, `tool.parameter` for a parameter.
 */
async function drawnNames(tools: Tool[]): Promise<Map<string, Set<string>>> {
  const drawn = new Map<string, Set<string>>();
  const add = (from: string, to: string) => drawn.set(from, (drawn.get(from) ?? new Set()).add(to));
  for (const harness of [...tools.map((tool) => toolsHarness([tool])), toolsHarness(tools)])
    for (const style of ['snake', 'camel', 'kebab', 'phrase', 'mixed'] as const)
      for (let seed = 0; seed < 12; seed++) {
        const options = { rng: `bfcl${seed}`, severity: 1, params: { style } };
        const tools = await applyOperator(renameTools, harness, options);
        if (!('skip' in tools))
          for (const step of tools.relabel.steps)
            if (step.type === 'rename_tools')
              for (const [from, to] of Object.entries(step.map)) add(from, to);
        const parameters = await applyOperator(renameParameters, harness, options);
        if (!('skip' in parameters))
          for (const step of parameters.relabel.steps)
            if (step.type === 'rename_arguments')
              for (const rename of step.renames) add(`${step.tool}.${rename.from}`, rename.to);
      }
  return drawn;
}

/** The words of every name drawn for `from` (the names checked, and how many). */
function wordsOf(drawn: Map<string, Set<string>>, from: string): { names: string[]; words: Set<string> } {
  const names = [...(drawn.get(from) ?? [])];
  return { names, words: new Set(names.flatMap((name) => identifierWords(name))) };
}

/** For each (name, words) case: more than three names were drawn for it, and none holds one of the words. */
function expectNoneOf(drawn: Map<string, Set<string>>, cases: ReadonlyArray<[string, string[]]>): void {
  for (const [from, wrong] of cases) {
    const { names, words } = wordsOf(drawn, from);
    expect(names.length, from).toBeGreaterThan(3);
    for (const word of wrong) expect(words.has(word), `${from}: ${names.join(' ')}`).toBe(false);
  }
}

describe('listed synonyms on public tools as they ship', () => {
  it('trading: an order is no purchase, an order type no category or kind, a price no cost', async () => {
    const drawn = await drawnNames(await bfclTools('bfcl-trading-bot.jsonl'));
    const cases: [string, string[]][] = [
      ['get_order_history', ['purchase', 'purchases']],
      ['place_order', ['purchase']],
      ['notify_price_change', ['cost', 'pricing']],
      ['get_stock_info', ['inventory', 'availability']],
      ['place_order.order_type', ['category', 'kind', 'purchase']],
      ['place_order.price', ['cost', 'pricing']],
    ];
    expectNoneOf(drawn, cases);
  }, 120_000);

  it('travel: a class is no tier, a date no day, a name no label, a message no text, a type no kind', async () => {
    const drawn = await drawnNames(await bfclTools('bfcl-travel-booking.jsonl'));
    const cases: [string, string[]][] = [
      ['book_flight.travel_class', ['tier', 'category']],
      ['book_flight.travel_date', ['day']],
      ['register_credit_card.expiration_date', ['day']],
      ['register_credit_card.cardholder_name', ['label']],
      ['contact_customer_support.message', ['text']],
      ['purchase_insurance.insurance_type', ['kind', 'category']],
      ['authenticate_travel.grant_type', ['kind', 'category']],
    ];
    expectNoneOf(drawn, cases);
  }, 120_000);

  it('GitHub: a sort order is no purchase, a search query no text, a commit message no text', async () => {
    const listed = JSON.parse(await fixture('github-mcp-server-default-tools.json')) as { result: unknown };
    const drawn = await drawnNames(importMcpTools(listed.result));
    const cases: [string, string[]][] = [
      ['search_issues.order', ['purchase']],
      ['search_code.order', ['purchase']],
      ['search_issues.query', ['text', 'keywords', 'terms']],
      ['search_code.query', ['text', 'keywords', 'terms']],
      ['push_files.message', ['text']],
    ];
    expectNoneOf(drawn, cases);
  }, 120_000);

  // BFCL's live functions: a movie's show date, time and type are nouns (a screening), never an action to
  // display, and so is an interviewer list; the first verb of a name acts wherever it stands
  // (`Services_1_BookAppointment`, Slack's `reminders_delete`).
  it("BFCL live: a verb the name holds as a noun takes no synonym; the name's first verb still does", async () => {
    const drawn = await drawnNames(await bfclTools('bfcl-movies-services.jsonl'));
    const cases: [string, string[]][] = [
      ['Movies_1_BuyMovieTickets.show_type', ['display', 'view']],
      ['Movies_1_BuyMovieTickets.show_date', ['display', 'view']],
      ['Movies_1_BuyMovieTickets.show_time', ['display', 'view']],
      ['get_interviewer_list', ['enumerate', 'browse']],
    ];
    expectNoneOf(drawn, cases);
    const booked = wordsOf(drawn, 'Services_1_BookAppointment');
    expect(booked.words.has('reserve'), booked.names.join(' ')).toBe(true);
    const dropped = wordsOf(drawn, 'reminders_delete');
    expect(dropped.words.has('drop'), dropped.names.join(' ')).toBe(true);
  }, 120_000);
});
