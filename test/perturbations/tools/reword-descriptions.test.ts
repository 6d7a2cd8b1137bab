import { describe, expect, it } from 'vitest';
import { rewordDescriptions } from '../../../perturbations/tools/reword-descriptions.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { HarnessInput } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelHarness, travelHarnessInput } from '../../support/travel-harness.js';
import { flightCase } from './flight-case.js';

const harness = travelHarness();
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const withTools = (items: HarnessInput['tools']['items']) => {
  const input = travelHarnessInput();
  input.tools.items = items;
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
  return parseHarness(input);
};

describe('tools/reword-descriptions', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(rewordDescriptions, { cases: [...(await lawCases()), flightCase()] });
  });

  it('rewords with equivalent phrasings (golden)', async () => {
    const result = applied(await applyOperator(rewordDescriptions, harness, { rng: 'golden', severity: 1 }));
    expect(result.harness.tools.items.map((tool) => tool.description)).toEqual([
      'Look for flights between two airports on a date. Pass `origin` and `destination` as IATA codes.',
      // A hold lapses, a reservation books: "Hold a seat" stays.
      'Hold a seat on a flight for 20 minutes.',
      'Baggage allowance for a fare class.',
    ]);
    expect(result.relabel.steps).toEqual([]);
  });

  it('never touches code, quotes, numbers, identifiers or enum values', async () => {
    const tool = {
      name: 'get_price',
      description:
        'Get the product price in 2 currencies, e.g. `get_price` of "the product"; returns in_stock and products ids.', // "products" is an enum value
      parameters: {
        type: 'object',
        properties: {
          mode: {
            type: 'string',
            enum: ['products', 'information'],
            description: 'When omitted, products and information are both shown.',
          },
        },
      },
    };
    const result = applied(
      await applyOperator(rewordDescriptions, withTools([tool]), { rng: 'p', severity: 1 }),
    );
    const [reworded] = result.harness.tools.items;
    expect(reworded?.description).toMatch(
      /^(Fetch|Look up|Retrieve) the item price in 2 currencies, (for example|for instance) `get_price` of "the product"; returns in_stock and products ids\.$/,
    );
    expect(
      (reworded!.parameters.properties as Record<string, { description: string }>).mode!.description,
    ).toMatch(/^(If omitted|When left out), products and information are both (displayed)\.$/);
  });

  it('leaves text in other languages alone unless the lexicon covers it', async () => {
    const chinese = {
      name: 'lookup_order',
      description: '按订单号查询物流状态。',
      parameters: { type: 'object', properties: { order_no: { type: 'string', description: '订单号' } } },
    };
    const german = {
      name: 'wetter',
      description: 'Das Wetter für eine Stadt.',
      parameters: { type: 'object' },
    };
    const result = applied(
      await applyOperator(rewordDescriptions, withTools([chinese, german]), { rng: 'zh', severity: 1 }),
    );
    expect(result.harness.tools.items.map((tool) => tool.description)).toEqual([
      '按订单号查找物流状态。',
      'Das Wetter für eine Stadt.',
    ]);
  });

  it('keeps a description that opens with a noun', async () => {
    const tool = {
      name: 'policy',
      description: 'Return, exchange and warranty terms.',
      parameters: { type: 'object' },
    };
    expect(await applyOperator(rewordDescriptions, withTools([tool]), { rng: 'n' })).toEqual({
      skip: 'no tool description has a phrase the lexicon rewords',
    });
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(rewordDescriptions, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
  });

  it('keeps Remove apart from Delete, and a noun phrase such as "Check runs" as it is', async () => {
    const tools = withTools([
      {
        name: 'remove_sub_issue',
        description: 'Remove a sub-issue from a parent issue.',
        parameters: { type: 'object', properties: {} },
      },
      {
        name: 'get_check_runs',
        description:
          'Check runs are the individual CI/CD jobs of a commit. Check whether they passed before you merge.',
        parameters: { type: 'object', properties: {} },
      },
    ]);
    let reworded = 0;
    for (let seed = 0; seed < 20; seed++) {
      const result = await applyOperator(rewordDescriptions, tools, { rng: `s${seed}`, severity: 1 });
      if ('skip' in result) continue;
      const [remove, checks] = result.harness.tools.items.map((tool) => tool.description);
      expect(remove).not.toMatch(/Delete/);
      expect(checks).toMatch(/^Check runs are/);
      if (checks?.includes('Verify whether they passed')) reworded += 1;
    }
    // The verb "Check" before a clause is still reworded.
    expect(reworded).toBeGreaterThan(0);
  });

  // GitHub's MCP server (pkg/github/__toolsnaps__ at 64a49f34): sub_issue_write's "ID is not the same as issue
  // number" became "Identifier is not the same as issue number", which no longer warns about the database
  // ID, and "The node ID of the review thread" (a GraphQL term) became "The node identifier …". τ-bench
  // airline: "The reservation ID" became "The reservation Identifier".
  it('never spells out "ID", and still writes "ID" for "identifier"', async () => {
    const tools = withTools([
      {
        name: 'sub_issue_write',
        description: 'Add a sub-issue to a parent issue.',
        parameters: {
          type: 'object',
          properties: {
            sub_issue_id: {
              type: 'number',
              description: 'The ID of the sub-issue to add. ID is not the same as issue number',
            },
            threadId: {
              type: 'string',
              description: 'The node ID of the review thread to resolve (e.g., PRRT_kwDOxxx)',
            },
          },
        },
      },
      {
        name: 'cancel_reservation',
        description: 'ID lookup first. Cancels the reservation with this ID, such as ZFA04Y.',
        parameters: { type: 'object', properties: {} },
      },
      {
        name: 'get_bills_for_line',
        description: 'Gets the bills of a line.',
        parameters: {
          type: 'object',
          properties: { line_id: { type: 'string', description: 'Line identifier of the subscriber' } },
        },
      },
    ]);
    const texts = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const result = await applyOperator(rewordDescriptions, tools, { rng: `id${seed}`, severity: 1 });
      if ('skip' in result) continue;
      for (const tool of result.harness.tools.items) {
        texts.add(tool.description);
        for (const property of Object.values(tool.parameters.properties ?? {}))
          texts.add(String((property as { description?: string }).description));
      }
    }
    // The only "identifier" left is the one the base wrote.
    for (const text of texts)
      if (/identifier/iu.test(text)) expect(text).toBe('Line identifier of the subscriber');
    expect([...texts].some((text) => text.includes('The ID of the sub-issue'))).toBe(true);
    expect(texts).toContain('Line ID of the subscriber');
  });

  // Audits of certified rows on public tools: each text below was reworded into a wrong name or grammar.
  it('keeps names joined by a slash, "information", "ID number" and "before" a clause as they are', async () => {
    const tools = withTools([
      {
        // sst/opencode (MIT), bash tool: `offset` and `limit` are the Read tool's parameters.
        name: 'bash',
        description:
          'You can use Read with offset/limit to read specific sections or Grep to search the full content.',
        parameters: { type: 'object', properties: {} },
      },
      {
        // All-Hands-AI/OpenHands @156d0686 (MIT), finish and task_tracker tools.
        name: 'finish',
        description: 'Get a summary.\n- Any follow-up questions if more information is needed',
        parameters: { type: 'object', properties: {} },
      },
      {
        name: 'task_tracker',
        description: 'Get the tasks.\n4. Pure information exchange or discussion',
        parameters: { type: 'object', properties: {} },
      },
      {
        // sequrity-ai/agentdojo @357c80de (MIT), get_user_information.
        name: 'get_user_information',
        description:
          'Get the user information, could be: first name, last name, ID number, email, phone number, address, passport number, bank account number, credit card number. These information are used for booking hotels and restaurants.',
        parameters: { type: 'object', properties: {} },
      },
      {
        // All-Hands-AI/OpenHands @156d0686 (MIT), str_replace_editor.
        name: 'str_replace_editor',
        description:
          'Get a file. Include sufficient context before and after the change point (3-5 lines recommended). Check it before you proceed, and before calling it.',
        parameters: { type: 'object', properties: {} },
      },
    ]);
    let gerunds = 0;
    for (let seed = 0; seed < 20; seed++) {
      const result = applied(
        await applyOperator(rewordDescriptions, tools, { rng: `n${seed}`, severity: 1 }),
      );
      const [bash, finish, tracker, user, editor] = result.harness.tools.items.map(
        (tool) => tool.description,
      );
      expect(bash).toContain('offset/limit to read');
      expect(finish).toContain('if more information is needed');
      expect(tracker).toContain('Pure information exchange');
      expect(user).toContain('ID number');
      expect(user).toContain(' the user information, could be');
      expect(editor).toContain('context before and after the change point');
      expect(editor).toContain('before you proceed');
      if (editor?.includes('prior to calling')) gerunds += 1;
    }
    // "before" a gerund still reads as "prior to".
    expect(gerunds).toBeGreaterThan(0);
  });
  // Audit 15 (BFCL v4 multi-turn, ShishirPatil/gorilla @6ea57973 (Apache-2.0),
  // bfcl_eval/data/multi_turn_func_doc/travel_booking.json, set_budget_limit; "float" written "number"):
  // "The budget limit to set in USD" became "The budget narrow to set in USD", the noun read as a verb.
  it('reads "limit to" as a verb only where a verb starts its clause, never after a noun', async () => {
    const bfclPreamble =
      'This tool belongs to the travel system, which allows users to book flights, manage credit cards, and view budget information. Tool description: ';
    const tools = withTools([
      {
        name: 'set_budget_limit',
        description: `${bfclPreamble}Set the budget limit for the user`,
        parameters: {
          type: 'object',
          properties: {
            access_token: {
              type: 'string',
              description:
                'The access token obtained from the authentication process or initial configuration.',
            },
            budget_limit: { type: 'number', description: 'The budget limit to set in USD' },
          },
          required: ['access_token', 'budget_limit'],
        },
      },
      {
        name: 'list_bookings',
        description: 'Lists the bookings. Optional; limit to 10 results, or you can limit to one user.',
        parameters: {
          type: 'object',
          properties: { page_size: { type: 'integer', description: 'Limit to apply to each page' } },
        },
      },
    ]);
    const verbs = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const result = applied(
        await applyOperator(rewordDescriptions, tools, { rng: `limit${seed}`, severity: 1 }),
      );
      const [budget, bookings] = result.harness.tools.items;
      expect((budget?.parameters.properties as Record<string, unknown> | undefined)?.budget_limit).toEqual({
        type: 'number',
        description: 'The budget limit to set in USD',
      });
      verbs.add(String(bookings?.description));
      expect(JSON.stringify(bookings?.parameters)).toContain('"Limit to apply to each page"');
    }
    // The verb still takes its synonyms.
    expect([...verbs].some((text) => /; (?:restrict|narrow) to 10 results/u.test(text))).toBe(true);
    expect([...verbs].some((text) => /can (?:restrict|narrow) to one user/u.test(text))).toBe(true);
  });
});
