import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renameTools } from '../../../perturbations/tools/rename.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { importOpenAITools } from '../../../src/harness/importers/openai-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { harnessSymbols } from '../../../src/harness/symbol-table.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory, validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { lawCases } from '../../support/law-cases.js';
import { projectRoot } from '../../support/run-cli.js';
import {
  baggageTrajectory,
  call,
  result,
  travelHarness,
  travelHarnessInput,
} from '../../support/travel-harness.js';
import { flightCase, rebookingTrajectory } from './flight-case.js';

const harness = travelHarness();
const styles = ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'mixed'] as const;
const applied = (result: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in result) throw new Error(`skipped: ${result.skip}`);
  return result;
};
const names = (result: AppliedOperator) => result.harness.tools.items.map((tool) => tool.name);
const certified = (result: AppliedOperator, trajectory: Trajectory) =>
  certify({
    base: harness,
    variant: result.harness,
    original: trajectory,
    rewritten: forwardTrajectory(trajectory, result.relabel, result.harness).trajectory,
    relabel: result.relabel,
  });

describe('tools/rename', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(renameTools, {
      cases: [...(await lawCases()), flightCase()],
      params: styles.map((style) => ({ style })),
    });
  });

  it('renames in the style asked (golden)', async () => {
    const run = async (style: string) =>
      names(
        applied(await applyOperator(renameTools, harness, { rng: 'golden', severity: 1, params: { style } })),
      );
    // `seat` and `policy` have no listed synonym (a seat is no place, an insurance policy no rules): re-cased
    // or kept, never swapped.
    expect(await run('snake')).toEqual(['lookup_flights', 'hold_seat_fn', 'retrieve_baggage_policy']);
    expect(await run('camel')).toEqual(['lookupFlights', 'holdSeat', 'getBaggagePolicy']);
    expect(await run('kebab')).toEqual(['lookup-flights', 'hold-seat', 'get-baggage-policy']);
    expect(await run('opaque')).toEqual(['tool_16', 'func_56', 'api_31']);
    expect(await run('phrase')).toEqual(['search_for_flights', 'put_on_hold_seat', 'look_up_baggage_policy']);
    expect(await run('mixed')).toEqual(['search_for_flights', 'holdSeat', 'get-baggage-policy']);
  });

  it('renames a share of the tools equal to the severity, at least one', async () => {
    const changed = async (severity: number) => {
      const result = applied(await applyOperator(renameTools, harness, { rng: 'share', severity }));
      return names(result).filter((name, index) => name !== harness.tools.items[index]?.name).length;
    };
    expect(await changed(0.01)).toBe(1);
    expect(await changed(0.67)).toBe(2);
    expect(await changed(1)).toBe(3);
  });

  it('returns the input unchanged at severity 0', async () => {
    const result = applied(await applyOperator(renameTools, harness, { rng: 'zero', severity: 0 }));
    expect(result.harness).toBe(harness);
    expect(result.relabel.steps).toEqual([]);
  });

  it('never renames the skill loader, and new names are valid and collide with nothing', async () => {
    const taken = new Set(harnessSymbols(harness).map((symbol) => symbol.name));
    for (const style of styles) {
      for (const seed of ['a', 'b', 'c']) {
        const result = applied(await applyOperator(renameTools, harness, { rng: seed, params: { style } }));
        expect(result.harness.skills.loader.tool).toBe('load_skill');
        for (const name of names(result)) {
          expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
          expect(taken.has(name)).toBe(false);
        }
        expect(new Set(names(result)).size).toBe(3);
      }
    }
  });

  it('carries calls and every mention to the new names', async () => {
    const result = applied(
      await applyOperator(renameTools, harness, { rng: 'golden', severity: 1, params: { style: 'camel' } }),
    );
    expect(result.harness.skills.items[0]?.body).toContain('Call `lookupFlights` before offering a flight.');
    expect(result.relabel.steps).toEqual([
      {
        type: 'rename_tools',
        map: { find_flights: 'lookupFlights', hold_seat: 'holdSeat', get_baggage_policy: 'getBaggagePolicy' },
      },
    ]);
    const trajectory = rebookingTrajectory();
    const moved = forwardTrajectory(trajectory, result.relabel, result.harness).trajectory;
    const call = moved.messages[4];
    expect(call?.role === 'assistant' && call.tool_calls?.[0]?.function.name).toBe('lookupFlights');
    expect(certified(result, trajectory).issues).toEqual([]);
  });

  it('keeps a tool that a reply names when the renamed reply would flip a hook', async () => {
    // The reply names `find_flights`; an opaque name adds digits that `grounded_numbers` rejects.
    const trajectory = rebookingTrajectory();
    for (const seed of ['g1', 'g2', 'g3', 'g4']) {
      const result = applied(
        await applyOperator(renameTools, harness, {
          rng: seed,
          severity: 1,
          params: { style: 'opaque' },
          trajectory,
        }),
      );
      expect(names(result)[0]).toBe('find_flights');
      expect(certified(result, trajectory).certified).toBe(true);
    }
  });

  // An audit on the MCP git server's tools: `git_add` became `git_insert` and `git_status` `git_state`.
  it('draws no synonym that names another action: git_add, git_status and create_label keep their verbs', async () => {
    const input = travelHarnessInput();
    for (const name of ['git_add', 'git_status', 'create_label'])
      input.tools.items.push({
        name,
        description: `${name.replaceAll('_', ' ')}.`,
        parameters: { type: 'object', properties: {} },
      });
    const withGit = parseHarness(input);
    const drawn: string[] = [];
    for (const style of ['snake', 'camel', 'phrase'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const result = await applyOperator(renameTools, withGit, {
          rng: `git${seed}`,
          severity: 1,
          params: { style },
        });
        if (!('skip' in result)) drawn.push(...names(result));
      }
    expect(drawn.length).toBeGreaterThan(0);
    for (const name of drawn) expect(name).not.toMatch(/insert|state|add_?label|addLabel/i);
  });

  // An audit on AgentDojo's travel and banking tools: `reserve_hotel` became `hold-hotel` (a hold is
  // provisional, a reservation made) and `send_money` `post_money` (to post money is to book it to a ledger).
  it('draws no synonym that names another action: reserve is not hold, send is not post', async () => {
    const input = travelHarnessInput();
    for (const name of ['reserve_hotel', 'send_money'])
      input.tools.items.push({
        name,
        description: `${name.replaceAll('_', ' ')}.`,
        parameters: { type: 'object', properties: {} },
      });
    const withBooking = parseHarness(input);
    const drawn: string[] = [];
    for (const style of ['snake', 'camel', 'kebab'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const result = await applyOperator(renameTools, withBooking, {
          rng: `booking${seed}`,
          severity: 1,
          params: { style },
        });
        if (!('skip' in result)) drawn.push(...names(result));
      }
    expect(drawn.some((name) => /book/iu.test(name))).toBe(true);
    for (const name of drawn) expect(name).not.toMatch(/^hold.?hotel|^post.?money|^reserve.?seat/iu);
  });

  // Audit 15 (BFCL v4 multi-turn, ShishirPatil/gorilla @6ea57973 (Apache-2.0),
  // bfcl_eval/data/multi_turn_func_doc/travel_booking.json, cancel_booking): `cancel_booking` became
  // `void-booking` (voiding is annulment within the void window, not a cancellation) and `revoke_booking`
  // (access and tokens are revoked, not bookings).
  it('draws no synonym that names another action: cancel is neither void nor revoke', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'cancel_booking',
      description:
        'This tool belongs to the travel system, which allows users to book flights, manage credit cards, and view budget information. Tool description: Cancel a booking',
      parameters: {
        type: 'object',
        properties: {
          access_token: { type: 'string', description: 'The access token obtained from the authenticate' },
          booking_id: { type: 'string', description: 'The ID of the booking' },
        },
        required: ['access_token', 'booking_id'],
      },
    });
    const withCancel = parseHarness(input);
    const drawn: string[] = [];
    for (const style of ['snake', 'camel', 'kebab', 'mixed'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const result = await applyOperator(renameTools, withCancel, {
          rng: `cancel${seed}`,
          severity: 1,
          params: { style },
        });
        if (!('skip' in result)) drawn.push(...names(result));
      }
    expect(drawn.some((name) => /call.?off.?booking/iu.test(name))).toBe(true);
    for (const name of drawn) expect(name).not.toMatch(/void|revoke/iu);
  });

  // BFCL's message API as it ships (test/perturbations/fixtures/bfcl-message-api.jsonl, four lines of
  // multi_turn_func_doc/message_api.json): `delete_message` may become `drop_message`, never `remove_message`
  // (removing detaches, deleting destroys: the rule reword-descriptions keeps for Delete and Remove), and a
  // user is no account (`get_user_id` is not `get_account_id`: a user may hold several accounts).
  it('draws no synonym that names another thing: delete is not remove, a user is not an account', async () => {
    const lines = (
      await readFile(join(projectRoot, 'test/perturbations/fixtures/bfcl-message-api.jsonl'), 'utf8')
    )
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    const input = travelHarnessInput();
    input.tools.items = importOpenAITools(lines);
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    input.prompt.sections = [{ id: 'role', title: 'Role', template: 'You manage a workspace.' }];
    input.hooks.items = [];
    const bfcl = parseHarness(input);
    const drawn = new Map<string, Set<string>>();
    for (const style of ['snake', 'camel', 'kebab', 'mixed'] as const)
      for (let seed = 0; seed < 20; seed++) {
        const result = await applyOperator(renameTools, bfcl, {
          rng: `bfcl${seed}`,
          severity: 1,
          params: { style },
        });
        if ('skip' in result) continue;
        for (const step of result.relabel.steps)
          if (step.type === 'rename_tools')
            for (const [from, to] of Object.entries(step.map))
              drawn.set(from, new Set([...(drawn.get(from) ?? []), to]));
      }
    const of = (name: string) => [...(drawn.get(name) ?? [])];
    expect(of('delete_message').length).toBeGreaterThan(3);
    for (const name of of('delete_message')) expect(name).not.toMatch(/remove/iu);
    expect(of('get_user_id').length + of('list_users').length).toBeGreaterThan(3);
    for (const name of [...of('get_user_id'), ...of('list_users')]) expect(name).not.toMatch(/account/iu);
  });

  // The name rule's word tables are looked up by a harness's words: `constructor` found Object.prototype's.
  it('renames names made of words that objects carry, such as constructor', async () => {
    const input = travelHarnessInput();
    input.tools.items.push({
      name: 'get_constructor',
      description: 'The constructor.',
      parameters: { type: 'object', properties: { constructor: { type: 'string' } } },
    });
    const withCtor = parseHarness(input);
    for (const style of ['snake', 'camel', 'phrase'] as const) {
      const result = await applyOperator(renameTools, withCtor, {
        rng: 'ctor',
        severity: 1,
        params: { style },
      });
      expect('skip' in result ? result.skip : names(result).length).toBe(4);
    }
  });

  it('skips a harness without registry tools', async () => {
    const input = travelHarnessInput();
    input.tools.items = [];
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    const empty = parseHarness(input);
    expect(await applyOperator(renameTools, empty, { rng: 'x' })).toEqual({
      skip: 'the registry has no tools to rename',
    });
  });

  it('makes a schema title that names the tool follow the rename, or keeps the tool', async () => {
    const input = travelHarnessInput();
    input.tools.items = [
      // AgentDojo's banking suite (sequrity-ai/agentdojo @357c80de, MIT), as the harness lists it.
      {
        name: 'get_balance',
        description: 'Get the balance of the account.',
        parameters: { type: 'object', properties: {}, title: 'Input schema for `get_balance`' },
      },
      // @modelcontextprotocol/server-filesystem (MIT): display titles, not offered to the model.
      {
        name: 'list_allowed_directories',
        title: 'List Allowed Directories',
        description:
          'Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.',
        parameters: { type: 'object', properties: {} },
      },
      {
        name: 'read_file',
        title: 'Read File (Deprecated)',
        description: 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
      // FastMCP's arguments model, titled `<tool>Arguments` (the MCP Python SDK's func_metadata).
      {
        name: 'send_money',
        description: 'Sends a transaction to the recipient.',
        parameters: { type: 'object', properties: {}, title: 'send_moneyArguments' },
      },
      // A title that names the tool as a model class would: no rename can rewrite it exactly.
      {
        name: 'get_iban',
        description: 'Get the IBAN of the current bank account.',
        parameters: { type: 'object', properties: {}, title: 'GetIbanInput' },
      },
    ];
    input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: 'Be kind.' }));
    const bank = parseHarness(input);
    const draft: Trajectory = {
      ...baggageTrajectory(),
      messages: [
        { role: 'system', content: '' },
        { role: 'user', content: 'My balance?' },
        call('load_skill', JSON.stringify({ skill_id: bank.skills.items[1]!.id }), 'b1'),
        result('b1', ''),
        call('get_balance', '{}', 'b2'),
        result('b2', '1810.0'),
        { role: 'assistant', content: 'Your balance is 1810.0.' },
      ],
    };
    const trajectory = validateTrajectory(rederiveTrajectory(draft, bank).trajectory, bank);
    expect(trajectory.issues).toEqual([]);
    for (const style of styles) {
      const result = applied(
        await applyOperator(renameTools, bank, { rng: style, severity: 1, params: { style } }),
      );
      const [balance, directories, read, send, iban] = result.harness.tools.items;
      expect(send?.parameters.title).toBe(`${send?.name}Arguments`);
      expect(send?.name).not.toBe('send_money');
      expect(balance?.parameters.title).toBe(`Input schema for \`${balance?.name}\``);
      expect(balance?.name).not.toBe('get_balance');
      expect(directories?.title).toBe(
        directories?.name
          .replaceAll('_', ' ')
          .replace(/\p{L}+/gu, (word) => `${word.slice(0, 1).toUpperCase()}${word.slice(1).toLowerCase()}`),
      );
      expect(read?.name).not.toBe('read_file');
      expect(read?.title).toBe('Read File (Deprecated)');
      expect(iban).toEqual(bank.tools.items[4]);
    }
    await checkOperatorLaws(renameTools, {
      cases: [{ name: 'bank', harness: bank, trajectories: [trajectory.trajectory!] }],
      params: styles.map((style) => ({ style })),
    });
  });
});
