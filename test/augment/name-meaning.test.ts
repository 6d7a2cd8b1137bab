// The name-meaning rule (issue 39): checkNewNames flags the misleading names found on a public telecom
// harness, accepts opaque and faithful ones, and every name the renaming operators draw passes it — on
// generated identifier sets, on the bundled harnesses and on real public tool lists and skills.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { namespaceSkillIds } from '../../perturbations/skill-ids/namespace.js';
import { renameSkillIds } from '../../perturbations/skill-ids/rename.js';
import { renameSkillLoader } from '../../perturbations/skill-ids/rename-loader.js';
import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { checkNewNames, definingWords, domainTerms, nameJudge } from '../../src/augment/name-meaning.js';
import { applyOperator, type Operator } from '../../src/augment/operator.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { loadSkillsFolder } from '../../src/harness/importers/agent-skills.js';
import { importMcpTools } from '../../src/harness/importers/mcp-tools.js';
import { skeletonHarness } from '../../src/harness/importers/skeleton.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness, Skill, Tool } from '../../src/harness/schema.js';
import { randomLawCase } from '../../src/testing/index.js';
import { projectRoot } from '../support/run-cli.js';

const operators = [
  renameTools,
  renameParameters,
  renameSkillIds,
  renameSkillLoader,
  namespaceSkillIds,
] as unknown as Operator[];
const styles = ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'mixed'];

const mcpTools = (file: string): Tool[] =>
  importMcpTools((JSON.parse(readFileSync(join(projectRoot, file), 'utf8')) as { result: unknown }).result);

/** Skills of the telecom agent where the misleading phrases were found (descriptions in its words). */
const telecomSkills: Skill[] = [
  {
    id: 'stock_check',
    kind: 'reply',
    description: 'Check whether a phone in a given color is in stock before you offer it.',
    body: 'Call `get_details_by_id` for the device. Never promise a color that is out of stock.',
  },
  {
    id: 'objection_handling',
    kind: 'strategy',
    description: 'Answer hesitation when a plan seems too expensive.',
    body: 'Acknowledge the hesitation, then compare the data allowance of the plans.',
  },
  {
    id: 'overdue-bill-payment',
    kind: 'reply',
    description: 'Take the customer through paying an overdue bill.',
    body: 'Find the overdue bill with `get_bills_for_customer`, then `send_payment_request` for it.',
  },
];

/** The τ²-bench telecom tools (test/perturbations/fixtures/README.md) with the skills above. */
const telecom = (): Harness =>
  skeletonHarness({
    id: 'telecom',
    tools: mcpTools('test/perturbations/fixtures/tau2-telecom-tools.json'),
    skills: structuredClone(telecomSkills),
  });

/** Three tools of GitHub's official MCP server (test/perturbations/fixtures/README.md). */
const github = (): Harness =>
  skeletonHarness({
    id: 'github',
    tools: mcpTools('test/perturbations/fixtures/github-mcp-server-tools-list.json'),
  });

/** The end of the message for a word that is neither the name's nor its description's nor a listed synonym. */
const notListed =
  'neither a word of its name or of what its description says it is (its first clause, without conditions or alternatives) nor a listed synonym of one';

/** The messages `checkNewNames` gives for one set of renames applied through the symbol table. */
function flagged(base: Harness, renames: Parameters<typeof renameSymbols>[1]): string[] {
  const output = renameSymbols(base, renames);
  return checkNewNames(base, output.harness, output.relabel).map((issue) => issue.message);
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The public-shaped skills that import (brand-guidelines is invalid on purpose) and the bundled ones. */
async function publicSkills(): Promise<Skill[]> {
  const folder = mkdtempSync(join(tmpdir(), 'hsa-skills-'));
  folders.push(folder);
  for (const name of ['pdf-tools', 'skill-creator'])
    cpSync(join(projectRoot, 'fixtures/importers/skills-public', name), join(folder, name), {
      recursive: true,
    });
  return [
    ...(await loadSkillsFolder(folder)),
    ...(await loadSkillsFolder(join(projectRoot, 'fixtures/importers/skills'))),
  ];
}

/** Applies every renaming operator in every style over seeds; returns the issues and how many names changed. */
async function renameEverything(harness: Harness, seeds: number) {
  const issues: string[] = [];
  let renamed = 0;
  let opaque = 0;
  for (const operator of operators)
    for (const style of operator.id === 'tools/rename' || operator.id === 'tools/rename-parameters'
      ? styles
      : ['mixed'])
      for (let seed = 0; seed < seeds; seed++) {
        const params =
          operator.id.startsWith('tools/') || operator.id === 'skill-ids/rename' ? { style } : {};
        const result = await applyOperator(operator, harness, {
          rng: `meaning/${seed}`,
          severity: 1,
          params,
        });
        if ('skip' in result) continue;
        for (const issue of checkNewNames(harness, result.harness, result.relabel))
          issues.push(`${operator.id} ${style}: ${issue.message}`);
        for (const step of result.relabel.steps) {
          const pairs =
            step.type === 'rename_tools' || step.type === 'rename_skills'
              ? Object.values(step.map)
              : step.type === 'rename_arguments'
                ? step.renames.map((rename) => rename.to)
                : [];
          renamed += pairs.length;
          opaque += pairs.filter((name) => /^\p{L}{1,10}[-_]?[0-9a-f]*\d[0-9a-f]*$/u.test(name)).length;
        }
      }
  return { issues, renamed, opaque };
}

describe('name meaning', () => {
  it('finds the domain terms of the telecom tools from their prose', () => {
    const terms = domainTerms(telecom());
    for (const term of ['data', 'line', 'bill', 'customer']) expect(terms.has(term), term).toBe(true);
    // Words only identifiers hold are no terms: `refuel` is written once outside them ("Refuels").
    expect(terms.has('whether')).toBe(false);
  });

  it('flags each misleading name reported on the telecom harness', () => {
    const base = telecom();
    expect(flagged(base, { tools: { get_data_usage: 'get_info_usage' } })).toEqual([
      `tool get_data_usage renamed get_info_usage: holds "info", ${notListed}`,
    ]);
    expect(flagged(base, { tools: { refuel_data: 'refuel_details' } })).toEqual([
      'tool refuel_data renamed refuel_details: holds "details", a word of get_details_by_id but not of its own name',
    ]);
    expect(flagged(base, { tools: { get_details_by_id: 'lookup-data-by-key' } })).toEqual([
      `tool get_details_by_id renamed lookup-data-by-key: holds "data", a word of get_data_usage but not of its own name; holds "key", ${notListed}`,
    ]);
    // A listed synonym of a word the prose uses as a term ("send" in its texts) is refused too.
    expect(flagged(base, { tools: { send_payment_request: 'dispatch_payment_request' } })).toEqual([
      'tool send_payment_request renamed dispatch_payment_request: replaces the domain term "send" by "dispatch"',
    ]);
    const amount = renameSymbols(base, {
      parameters: [{ tool: 'refuel_data', path: ['gb_amount'], to: 'gb-amount-amount' }],
    });
    expect(checkNewNames(base, amount.harness, amount.relabel)).toEqual([
      {
        code: 'misleading_name',
        path: ['tools', 'items', 12, 'parameters', 'properties', 'gb-amount-amount'],
        message: 'parameter gb_amount renamed gb-amount-amount: repeats the word "amount"',
      },
    ]);
    expect(flagged(base, { skills: { stock_check: 'whether color playbook' } })).toEqual([
      'skill stock_check renamed whether color playbook: holds the function word "whether"',
    ]);
    expect(flagged(base, { skills: { objection_handling: 'hesitation too guide' } })).toEqual([
      'skill objection_handling renamed hesitation too guide: holds the function word "too"',
    ]);
    expect(flagged(base, { skills: { 'overdue-bill-payment': 'take customer guide' } })).toEqual([
      'skill overdue-bill-payment renamed take customer guide: holds the function word "take"; holds "customer", a word of get_customer_by_phone but not of its own name',
    ]);
  });

  it('points at the renamed identifier in the variant', () => {
    const base = telecom();
    const output = renameSymbols(base, { skills: { stock_check: 'whether color playbook' } });
    expect(checkNewNames(base, output.harness, output.relabel)[0]?.path).toEqual([
      'skills',
      'items',
      0,
      'id',
    ]);
    const loader = renameSymbols(base, { tools: { load_skill: 'get_skill' } });
    expect(checkNewNames(base, loader.harness, loader.relabel)).toEqual([
      expect.objectContaining({ path: ['skills', 'loader', 'tool'] }),
    ]);
  });

  it('accepts opaque codes and faithful names: re-cased, reordered, other spellings, kind nouns', () => {
    const base = telecom();
    expect(
      flagged(base, {
        tools: {
          get_data_usage: 'getDataUsage',
          refuel_data: 'data-refuel',
          get_customer_by_id: 'tool_7f3a',
          suspend_line: 'fn_12',
          get_details_by_id: 'fetch_details_by_identifier',
          enable_roaming: 'enable_roaming_tool',
        },
        skills: { stock_check: 'SK-07', objection_handling: 'objection handling playbook' },
        parameters: [{ tool: 'refuel_data', path: ['gb_amount'], to: 'gbAmount' }],
      }),
    ).toEqual([]);
  });

  it('flags a word of no source, a function word added, and an opaque prefix of another identifier', () => {
    const base = telecom();
    expect(flagged(base, { tools: { enable_roaming: 'enable_roaming_quickly' } })).toEqual([
      'tool enable_roaming renamed enable_roaming_quickly: holds "quickly", neither a word of its name or of what its description says it is (its first clause, without conditions or alternatives) nor a listed synonym of one',
    ]);
    expect(flagged(base, { tools: { resume_line: 'resume_the_line' } })).toEqual([
      'tool resume_line renamed resume_the_line: holds the function word "the"',
    ]);
    expect(flagged(base, { tools: { resume_line: 'bill_12' } })).toEqual([
      'tool resume_line renamed bill_12: holds "bill", a word of overdue-bill-payment but not of its own name',
    ]);
  });

  it('flags a word taken from a condition or from one side of an alternative on the GitHub MCP tools', () => {
    // issue_write: "Create a new or update an existing issue …"; duplicate_of: "Issue number that this issue
    // is a duplicate of. Required when state_reason is 'duplicate'."
    const base = github();
    const holds = (word: string) =>
      `holds "${word}", neither a word of its name or of what its description says it is (its first clause, without conditions or alternatives) nor a listed synonym of one`;
    expect(flagged(base, { tools: { issue_write: 'issue_write_create' } })).toEqual([
      `tool issue_write renamed issue_write_create: ${holds('create')}`,
    ]);
    const required = renameSymbols(base, {
      parameters: [{ tool: 'issue_write', path: ['duplicate_of'], to: 'duplicate_of_required' }],
    });
    expect(checkNewNames(base, required.harness, required.relabel).map((issue) => issue.message)).toEqual([
      `parameter duplicate_of renamed duplicate_of_required: ${holds('required')}`,
    ]);
    // A word of the description's first clause is still faithful.
    expect(flagged(base, { tools: { update_issue_labels: 'update_issue_labels_existing' } })).toEqual([]);
    expect(
      definingWords([
        "Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.",
      ]),
    ).toEqual(['issue', 'number', 'issue', 'duplicate']);
    expect(definingWords(['Create a new or update an existing issue in a GitHub repository.'])).toEqual([]);
    expect(definingWords(['View layout; required when creating a view.'])).toEqual(['view', 'layout']);
  });

  it('no name drawn on the GitHub MCP tools takes a word of a condition or an alternative', async () => {
    const base = github();
    const { issues, renamed } = await renameEverything(base, 6);
    expect(issues).toEqual([]);
    expect(renamed).toBeGreaterThan(50);
    const drawn: string[] = [];
    for (const operator of [renameTools, renameParameters] as unknown as Operator[])
      for (const style of styles)
        for (let seed = 0; seed < 12; seed++) {
          const result = await applyOperator(operator, base, {
            rng: `alt/${seed}`,
            severity: 1,
            params: { style },
          });
          if ('skip' in result) continue;
          for (const step of result.relabel.steps) {
            if (step.type === 'rename_tools' && step.map.issue_write) drawn.push(step.map.issue_write);
            if (step.type === 'rename_arguments')
              for (const rename of step.renames)
                if (rename.path.join('.') === 'duplicate_of') drawn.push(rename.to);
          }
        }
    expect(drawn.length).toBeGreaterThan(10);
    for (const name of drawn)
      expect(name.toLowerCase(), name).not.toMatch(/create|new|existing|required|state|reason|when/);
  }, 120_000);

  it('refuses a label in another script that translates only part of a name (τ-bench retail, IT ops)', async () => {
    const retail = await loadHarnessFile(
      join(projectRoot, 'test/demo/fixtures/tau-bench-retail/harness.yaml'),
    );
    const itops = await loadHarnessFile(join(projectRoot, 'fixtures/itops/harness.yaml'));
    const partial = (what: string) => `translates its name in part: ${what} not in it`;
    // "cancel order" names every cancellation; "order" alone names each of the four order skills.
    expect(flagged(retail, { skills: { 'cancel-pending-order': '取消订单' } })).toEqual([
      `skill cancel-pending-order renamed 取消订单: ${partial('"pending" is')}`,
    ]);
    expect(flagged(retail, { skills: { 'exchange-delivered-order': 'παραγγελία' } })).toEqual([
      `skill exchange-delivered-order renamed παραγγελία: ${partial('"exchange", "delivered" are')}`,
    ]);
    expect(flagged(itops, { skills: { 'certificate-check': '確認', 'log-search': '検索' } })).toEqual([
      `skill certificate-check renamed 確認: ${partial('"certificate" is')}`,
      `skill log-search renamed 検索: ${partial('"log" is')}`,
    ]);
    // Every content word translated (function words and kind nouns aside), or a code: faithful.
    const livestream = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    expect(flagged(livestream, { skills: { price_and_coupons: '価格クーポン', chit_chat: '雑談' } })).toEqual(
      [],
    );
    expect(flagged(retail, { skills: { 'cancel-pending-order': '技能-07' } })).toEqual([]);
    // What skill-ids/rename draws in another script covers the whole id, on harnesses it has a word for
    // and on those it has not.
    for (const base of [retail, itops, livestream]) {
      const judged = new Map(
        base.skills.items.map((skill) => [skill.id, nameJudge(base, { kind: 'skill', name: skill.id })]),
      );
      let labels = 0;
      for (let seed = 0; seed < 24; seed++) {
        const result = await applyOperator(renameSkillIds, base, {
          rng: `label/${seed}`,
          severity: 1,
          params: { style: 'non-ascii' },
        });
        if ('skip' in result) continue;
        expect(checkNewNames(base, result.harness, result.relabel)).toEqual([]);
        for (const step of result.relabel.steps)
          if (step.type === 'rename_skills')
            for (const [from, to] of Object.entries(step.map)) {
              expect(judged.get(from)?.reason(to), `${from} → ${to}`).toBeUndefined();
              if (!/-\d+$/.test(to)) labels++;
            }
      }
      if (base !== retail) expect(labels).toBeGreaterThan(0);
    }
  }, 60_000);

  it('draws no parameter or tool name from a description word the name does not open with (τ-bench retail, GitHub)', async () => {
    // "The item ids to be exchanged (for)" made `item_ids_exchanged` of `item_ids` and of `new_item_ids`;
    // "Results per page for pagination" made `results_page_pagination` of `perPage`; "right now" made
    // `service_health_right`; "E-mail address, employee id or username" made `mail_address`.
    const retail = await loadHarnessFile(
      join(projectRoot, 'test/demo/fixtures/tau-bench-retail/harness.yaml'),
    );
    const helpdesk = await loadHarnessFile(join(projectRoot, 'fixtures/helpdesk/harness.yaml'));
    const itops = await loadHarnessFile(join(projectRoot, 'fixtures/itops/harness.yaml'));
    const githubOld = skeletonHarness({
      id: 'github-03',
      tools: mcpTools('test/drift/fixtures/github-mcp-search/tools/03-805358b.json'),
    });
    expect(definingWords(['E-mail address, employee id or username.'])).toEqual([]);
    expect(definingWords(['Sort field, defaults to best match'])).toEqual(['sort', 'field']);
    const drawn = new Map<string, Set<string>>();
    for (const base of [retail, helpdesk, itops, githubOld])
      for (const operator of [renameTools, renameParameters] as unknown as Operator[])
        for (const style of ['phrase', 'mixed'])
          for (let seed = 0; seed < 20; seed++) {
            const result = await applyOperator(operator, base, {
              rng: `lead/${seed}`,
              severity: 1,
              params: { style },
            });
            if ('skip' in result) continue;
            for (const step of result.relabel.steps) {
              const pairs =
                step.type === 'rename_tools'
                  ? Object.entries(step.map)
                  : step.type === 'rename_arguments'
                    ? step.renames.map((rename) => [rename.from, rename.to] as const)
                    : [];
              for (const [from, to] of pairs) drawn.set(from, (drawn.get(from) ?? new Set()).add(to));
            }
          }
    const names = (from: string) => [...(drawn.get(from) ?? [])];
    expect(names('item_ids').length).toBeGreaterThan(0);
    for (const from of ['item_ids', 'new_item_ids']) expect(names(from).join(' ')).not.toMatch(/exchang/);
    expect(names('per_page').join(' ')).not.toMatch(/results|pagination/);
    expect(names('service_health').join(' ')).not.toMatch(/right|now/);
    expect(names('value').join(' ')).not.toMatch(/mail|employee|username/);
    expect(names('delivery').join(' ')).not.toMatch(/shipping/);
    // A tool's phrase name holds its own words (or listed synonyms) and a noun of its kind, nothing more.
    const verify = names('verify_identity');
    expect(verify.length).toBeGreaterThan(0);
    for (const name of verify) expect(name, name).not.toMatch(/send|code|manager/);
  }, 120_000);

  it('judges a rename followed through several steps by its final name', () => {
    const base = telecom();
    const first = renameSymbols(base, { tools: { refuel_data: 'refuelData' } });
    const second = renameSymbols(first.harness, { tools: { refuelData: 'refuel_info' } });
    const relabel = { steps: [...first.relabel.steps, ...second.relabel.steps] };
    expect(checkNewNames(base, second.harness, relabel).map((issue) => issue.message)).toEqual([
      `tool refuel_data renamed refuel_info: holds "info", ${notListed}`,
    ]);
    // Content-cached: the same objects give the same array.
    expect(checkNewNames(base, second.harness, relabel)).toBe(checkNewNames(base, second.harness, relabel));
  });

  it('gives operators the synonyms a word may take: none for a domain term but its other spellings', () => {
    const base = telecom();
    // "send" is a term of the telecom prose: `dispatch` and `send_out`, listed for it, may not stand for it.
    expect(nameJudge(base, { kind: 'tool', name: 'send_payment_request' }).replacements('send')).toEqual([]);
    expect(nameJudge(base, { kind: 'tool', name: 'get_data_usage' }).replacements('get')).toContain('fetch');
    expect(nameJudge(base, { kind: 'parameter', name: 'customer_id' }).replacements('id')).toEqual([
      'identifier',
    ]);
  });

  // A hotel's tools (written for this test, in the shape of public booking tools): `check_in` and `check_out`
  // are dates of a booking and the acts of arriving and leaving, never `verify_in` or `inspect_out`.
  it('gives no synonym to a verb a particle follows in the name (check_in, check_out)', async () => {
    const id = { type: 'string' };
    const hotelTools: Tool[] = [
      {
        name: 'create_booking',
        description: 'Create a confirmed booking for a room and guest.',
        parameters: {
          type: 'object',
          properties: { room_id: id, check_in: { type: 'string' }, check_out: { type: 'string' } },
          required: ['room_id', 'check_in', 'check_out'],
        },
      },
      {
        name: 'check_in',
        description: 'Check in a booking.',
        parameters: { type: 'object', properties: { booking_id: id }, required: ['booking_id'] },
      },
      {
        name: 'check_status',
        description: 'Check the status of a booking.',
        parameters: { type: 'object', properties: { booking_id: id }, required: ['booking_id'] },
      },
    ];
    const hotel = (tools: Tool[]) => skeletonHarness({ id: 'hotel', tools: structuredClone(tools) });
    // Alone, each tool's prose does not make "check" a term: only the particle keeps its synonyms away.
    const parameter = nameJudge(hotel([hotelTools[0] as Tool]), { kind: 'parameter', name: 'check_in' });
    expect(parameter.replacements('check')).toEqual([]);
    expect(parameter.reason('verify_in')).toMatch(/holds "verify"/);
    const tool = nameJudge(hotel([hotelTools[1] as Tool]), { kind: 'tool', name: 'check_in' });
    expect(tool.replacements('check')).toEqual([]);
    expect(tool.reason('look_at_in')).toBeDefined();
    // Where no particle follows, `check` keeps its synonyms.
    expect(
      nameJudge(hotel([hotelTools[2] as Tool]), { kind: 'tool', name: 'check_status' }).replacements('check'),
    ).toContain('verify');
    const drawn: string[] = [];
    for (const harness of [hotel([hotelTools[0] as Tool]), hotel([hotelTools[1] as Tool])])
      for (const operator of [renameTools, renameParameters] as unknown as Operator[])
        for (const style of ['snake', 'phrase', 'mixed'])
          for (let seed = 0; seed < 12; seed++) {
            const result = await applyOperator(operator, harness, {
              rng: `hotel/${seed}`,
              severity: 1,
              params: { style },
            });
            if ('skip' in result) continue;
            expect(checkNewNames(harness, result.harness, result.relabel)).toEqual([]);
            for (const step of result.relabel.steps)
              if (step.type === 'rename_tools') drawn.push(...Object.values(step.map));
              else if (step.type === 'rename_arguments')
                drawn.push(...step.renames.map((rename) => rename.to));
          }
    expect(drawn.length).toBeGreaterThan(20);
    for (const name of drawn) expect(name).not.toMatch(/verify|inspect|query|look.?at|check.?on/iu);
  }, 120_000);

  // Names written for this test in the shape of public ones: a verb of the table is the name's action only as
  // its first verb; a tool that gets a book, deposits a check or reads a server's load names things with the
  // words after it, and a parameter's name always names a thing.
  it('gives no synonym to a verb the name holds as a noun (get_book, deposit_check, list_id)', () => {
    const tool = (name: string, description: string): Tool => ({
      name,
      description,
      parameters: { type: 'object', properties: { list_id: { type: 'string' } }, required: ['list_id'] },
    });
    const harness = skeletonHarness({
      id: 'nouns',
      tools: [
        tool('get_book', 'Look up a library title by its id.'),
        tool('deposit_check', 'Deposit a paper check into an account.'),
        tool('get_server_load', 'Report the current load of a server.'),
        tool('book_flight', 'Reserve a seat on a flight.'),
        tool('reminders_delete', 'Deletes a reminder.'),
        tool('stock_status', 'Check the stock status of a product.'),
      ],
    });
    const judge = (kind: 'tool' | 'parameter', name: string) => nameJudge(harness, { kind, name });
    expect(judge('tool', 'get_book').replacements('book')).toEqual([]);
    expect(judge('tool', 'get_book').reason('get_reserve')).toMatch(/holds "reserve"/);
    expect(judge('tool', 'deposit_check').reason('deposit_verify')).toMatch(/holds "verify"/);
    expect(judge('tool', 'get_server_load').replacements('load')).toEqual([]);
    expect(judge('parameter', 'list_id').replacements('list')).toEqual([]);
    expect(judge('parameter', 'list_id').reason('browse_id')).toMatch(/holds "browse"/);
    // The name's first verb acts, wherever it stands; a name without one takes its description's.
    expect(judge('tool', 'book_flight').accepts('reserve_flight')).toBe(true);
    expect(judge('tool', 'reminders_delete').accepts('reminders_drop')).toBe(true);
    expect(judge('tool', 'stock_status').accepts('verify_stock_status')).toBe(true);
  });

  // The skill loader's act (load a skill's rules: use, activate, consult it) has synonyms of its own; a tool
  // that loads data takes none of them (written for this test).
  it('gives the loader its own synonyms, and no other tool (load_data is never use_data)', () => {
    const harness = skeletonHarness({
      id: 'loads',
      tools: [
        {
          name: 'load_data',
          description: 'Read a table into memory.',
          parameters: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
        },
      ],
    });
    const data = nameJudge(harness, { kind: 'tool', name: 'load_data' });
    for (const act of ['use', 'activate', 'consult', 'open', 'loader'])
      expect(data.replacements('load')).not.toContain(act);
    expect(data.reason('use_data')).toMatch(/holds "use"/);
    expect(data.reason('activate_data')).toMatch(/holds "activate"/);
    const loader = nameJudge(harness, { kind: 'tool', name: harness.skills.loader.tool });
    for (const name of ['use_skill', 'activate_skill', 'consult_skill'])
      expect(loader.accepts(name), name).toBe(true);
  });

  it('every name the renaming operators draw on the τ²-bench telecom tools passes, and most are words', async () => {
    const { issues, renamed, opaque } = await renameEverything(telecom(), 6);
    expect(issues).toEqual([]);
    expect(renamed).toBeGreaterThan(100);
    expect(opaque / renamed).toBeLessThan(0.5);
  }, 120_000);

  it('every drawn name passes on the MCP filesystem server tools and public-shaped Agent Skills', async () => {
    const harness = skeletonHarness({
      id: 'files',
      tools: [
        ...mcpTools('fixtures/importers/mcp-tools-list.json'),
        ...mcpTools('fixtures/importers/mcp-tools-list-2020-12.json'),
      ],
      skills: await publicSkills(),
    });
    const { issues, renamed } = await renameEverything(harness, 4);
    expect(issues).toEqual([]);
    expect(renamed).toBeGreaterThan(100);
  }, 120_000);

  it('every drawn name passes on the bundled harnesses', async () => {
    for (const name of ['livestream', 'helpdesk', 'itops']) {
      const harness = await loadHarnessFile(join(projectRoot, `fixtures/${name}/harness.yaml`));
      const { issues, renamed } = await renameEverything(harness, 2);
      expect(issues, name).toEqual([]);
      expect(renamed, name).toBeGreaterThan(20);
    }
  }, 120_000);
});

// ── Generated identifier sets ─────────────────────────────────────────────────────────────────────────────

/** Words identifiers are made of: common tool words with listed synonyms, domain nouns, and function words. */
const vocabulary = [
  'get',
  'find',
  'search',
  'check',
  'list',
  'update',
  'cancel',
  'send',
  'hold',
  'refuel',
  'suspend',
  'data',
  'info',
  'details',
  'line',
  'bill',
  'order',
  'price',
  'stock',
  'customer',
  'user',
  'item',
  'product',
  'status',
  'amount',
  'quantity',
  'id',
  'name',
  'date',
  'limit',
  'color',
  'plan',
  'usage',
  'by',
  'for',
  'the',
  'of',
  'to',
  'whether',
  'too',
  'take',
];
const sentenceWords = [...vocabulary, 'a', 'is', 'and', 'when', 'mobile', 'account', 'payment', 'overdue'];

const identifierArbitrary = fc
  .array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 })
  .map((words) => words.join('_'));
const descriptionArbitrary = fc
  .array(fc.constantFrom(...sentenceWords), { minLength: 3, maxLength: 14 })
  .map((words) => `${words.join(' ')}.`);

const generatedHarness = fc
  .record({
    tools: fc.uniqueArray(
      fc.record({
        name: identifierArbitrary,
        description: descriptionArbitrary,
        parameters: fc.uniqueArray(fc.tuple(identifierArbitrary, descriptionArbitrary), {
          maxLength: 3,
          selector: ([name]) => name,
        }),
      }),
      { minLength: 1, maxLength: 5, selector: (tool) => tool.name },
    ),
    skills: fc.uniqueArray(fc.tuple(identifierArbitrary, descriptionArbitrary, descriptionArbitrary), {
      maxLength: 4,
      selector: ([id]) => id,
    }),
  })
  .filter(({ tools, skills }) => {
    const names = [...tools.map((tool) => tool.name), ...skills.map(([id]) => id), 'load_skill', 'skill_id'];
    return new Set(names).size === names.length && tools.every((tool) => tool.name.includes('_'));
  })
  .map(({ tools, skills }) =>
    skeletonHarness({
      id: 'generated',
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: {
          type: 'object',
          properties: Object.fromEntries(
            tool.parameters.map(([name, description]) => [name, { type: 'string', description }]),
          ),
        },
      })),
      skills: skills.map(([id, description, body]) => ({ id, kind: 'reply', description, body })),
    }),
  );

describe('name meaning on generated identifier sets', () => {
  it('every name a renaming operator draws passes checkNewNames', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedHarness,
        fc.constantFrom(...operators),
        fc.constantFrom(...styles),
        fc.integer({ min: 0, max: 1000 }),
        async (harness, operator, style, seed) => {
          const params = operator.id.startsWith('tools/') ? { style } : {};
          const result = await applyOperator(operator, harness, { rng: `p/${seed}`, severity: 1, params });
          if ('skip' in result) return;
          expect(checkNewNames(harness, result.harness, result.relabel)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('every name drawn on random law-case harnesses passes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...operators),
        async (caseSeed, operator) => {
          const { harness } = randomLawCase(caseSeed);
          const result = await applyOperator(operator, harness, { rng: `law/${caseSeed}`, severity: 1 });
          if ('skip' in result) return;
          expect(checkNewNames(harness, result.harness, result.relabel)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('a function word, a repeated word or a synonym of a domain term in a new tool name is flagged', () => {
    fc.assert(
      fc.property(
        generatedHarness,
        fc.constantFrom('whether', 'too', 'take', 'the', 'of'),
        (harness, functionWord) => {
          const tool = harness.tools.items[0] as Tool;
          const words = tool.name.split('_');
          const judge = nameJudge(harness, { kind: 'tool', name: tool.name });
          if (!words.includes(functionWord))
            expect(judge.reason(`${tool.name}_${functionWord}`)).toBeDefined();
          expect(judge.reason(`${tool.name}_${words[0]}`)).toMatch(/repeats/);
          const once = words.filter((word) => word === 'details').length === 1;
          if (once && domainTerms(harness).has('details') && !words.includes('info'))
            expect(judge.reason(tool.name.replace('details', 'info'))).toMatch(/domain term "details"/);
        },
      ),
      { numRuns: 100 },
    );
  });
});
