// `hsa harness build` as a user runs it: one harness from a live MCP server (the real server-memory from npm,
// over stdio), an OpenAI tool list and a SKILL.md folder of public material, a prompt and a hooks file; run
// again, it changes only what changed in the sources, keeps what the user wrote by hand, and says what changed.
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryServerScript } from '../support/mcp-servers.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-harness-build-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const telecom = join(projectRoot, 'test/augment/fixtures/public/telecom');
const example = join(projectRoot, 'examples/own-harness');
const tools = join(dir, 'tools.json');
await cp(join(telecom, 'tools.json'), tools);
const memoryServer = `"${process.execPath}" "${memoryServerScript}"`;

const sources = () => [
  '--mcp-command',
  memoryServer,
  '--openai-tools',
  tools,
  '--skills',
  join(telecom, 'skills'),
  '--prompt',
  join(example, 'prompt.md'),
  '--hooks',
  join(example, 'hooks.yaml'),
];
const build = (out: string, ...extra: string[]) =>
  runCli(['harness', 'build', '-o', out, '--id', 'telecom-support', ...sources(), ...extra]);

describe('hsa harness build', () => {
  const out = join(dir, 'harness.yaml');

  it('builds one harness from a live MCP server, an OpenAI tool list, skills, a prompt and hooks', async () => {
    const run = build(out, '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      status: 'created',
      record: join(dir, 'harness.build.json'),
      harness: { id: 'telecom-support' },
      counts: { tools: 22, skills: 5, sections: 5, hooks: 5 },
    });
    const built = runCli(['validate', out]);
    expect(built.stdout).toContain(
      'valid harness "telecom-support" (5 skills, 5 hooks, 5 prompt sections, 22 tools)',
    );
    const text = await readFile(out, 'utf8');
    // The server's tools come first, as it lists them, then the OpenAI list's, in its order.
    expect(text.indexOf('- name: create_entities')).toBeLessThan(
      text.indexOf('- name: get_customer_by_phone'),
    );
    // Same sources, another file: the same bytes (the record names the same sources).
    const again = join(dir, 'again.yaml');
    expect(build(again).status).toBe(0);
    expect(await readFile(again, 'utf8')).toBe(text);
    expect(await readFile(join(dir, 'again.build.json'), 'utf8')).toBe(
      await readFile(join(dir, 'harness.build.json'), 'utf8'),
    );
  }, 120_000);

  it('run again with the same sources, changes nothing and writes nothing', async () => {
    const before = await stat(out);
    const run = build(out);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^unchanged .*harness\.yaml: harness "telecom-support" from 5 sources/);
    expect(run.stdout).toContain('no change in the sources');
    expect((await stat(out)).mtimeMs).toBe(before.mtimeMs);
  }, 60_000);

  it("updates only what changed in the sources, and keeps the user's own sections, hooks and edits", async () => {
    // The user adds a section and a hook by hand, and rewords a tool the source still gives as before.
    let text = await readFile(out, 'utf8');
    text = text.replace(
      '    - id: skills\n',
      '    # Ours: the escalation rule of the support team.\n    - id: escalation\n      title: Escalation\n      template: Escalate billing disputes over $500.\n    - id: skills\n',
    );
    text = text.replace(
      'hooks:\n  version: "1"\n  items:\n',
      'hooks:\n  version: "1"\n  items:\n    - id: no_promises\n      stage: pre_reply\n      check: { type: banned_terms, terms: [guarantee] }\n      onFail: { action: block }\n',
    );
    text = text.replace(
      'description: Disables international roaming on a line.',
      'description: Disables international roaming on a line (only when the user asks).',
    );
    await writeFile(out, text);
    // The tool list changes: one tool reworded, one dropped, one added.
    const list = JSON.parse(await readFile(tools, 'utf8')) as Array<{
      function: { name: string; description: string };
    }>;
    const edited = list
      .filter((tool) => tool.function.name !== 'transfer_to_human_agents')
      .map((tool) =>
        tool.function.name === 'enable_roaming'
          ? { ...tool, function: { ...tool.function, description: 'Enables data roaming on a line.' } }
          : tool,
      );
    edited.push({
      type: 'function',
      function: { name: 'check_payment_request', description: 'Lists the payment requests of a customer.' },
    } as never);
    await writeFile(tools, JSON.stringify(edited, null, 2));

    const run = build(out, '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe('updated');
    expect(result.layoutKept).toBe(true);
    expect(result.changes.tools).toEqual({
      added: ['check_payment_request'],
      removed: ['transfer_to_human_agents'],
      changed: ['enable_roaming'],
      edited: ['disable_roaming'],
      own: [],
    });
    expect(result.changes.skills).toMatchObject({ added: [], removed: [], changed: [] });
    expect(result.changes.sections.own).toEqual(['escalation']);
    expect(result.changes.hooks.own).toEqual(['no_promises']);
    const after = await readFile(out, 'utf8');
    expect(after).toContain('    # Ours: the escalation rule of the support team.\n    - id: escalation\n');
    expect(after).toContain('      check: { type: banned_terms, terms: [guarantee] }\n');
    expect(after).toContain('(only when the user asks)');
    expect(after).toContain('description: Enables data roaming on a line.');
    expect(after).not.toContain('- name: transfer_to_human_agents');
    // The new tool sits after its neighbour in the list.
    expect(after.indexOf('- name: check_payment_request')).toBeGreaterThan(
      after.indexOf('- name: refuel_data'),
    );
    // Every line of the file that no change touched is still there, in order.
    const untouched = text
      .split('\n')
      .filter((line) => !/transfer_to_human_agents|Enables international/.test(line));
    let from = 0;
    const lines = after.split('\n');
    for (const line of untouched.slice(0, 60)) {
      const at = lines.indexOf(line, from);
      expect(at, line).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }

    const again = build(out);
    expect(again.stdout).toContain('no change in the sources');
    expect(again.stdout).toContain('kept as your own: 1 prompt section (escalation); 1 hook (no_promises)');
    expect(again.stdout).toContain(
      'kept your edits (their sources did not change): 1 tool (disable_roaming)',
    );
  }, 120_000);

  it('gives a harness of tools alone no Skills section: its loader would not be offered', async () => {
    const toolsOnly = join(dir, 'tools-only.yaml');
    const run = runCli(['harness', 'build', '-o', toolsOnly, '--id', 'tools-only', '--openai-tools', tools]);
    expect(run.status, run.stderr).toBe(0);
    const rendered = runCli(['render', toolsOnly]);
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stdout).not.toContain('load_skill');
    expect(rendered.stdout).not.toMatch(/^## Skills/m);
  }, 60_000);

  it('reads a folder of OpenHands microagents, says what it made up and left aside, and leaves the tool list out on request', async () => {
    const rules = join(projectRoot, 'fixtures/importers/rules-public');
    const agent = join(dir, 'openhands.yaml');
    const run = runCli(['harness', 'build', '-o', agent, '--skills', rules, '--openai-tools', tools]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('5 skills, 3 prompt sections');
    expect(run.stderr.trim().split('\n')).toEqual([
      `note: --skills ${rules}: 5 rule files have no description; each is described from its triggers or globs ("Load when a message mentions …"): ${join(rules, 'add_agent.md')}, ${join(rules, 'code-review.md')}, ${join(rules, 'github.md')} and 2 more`,
      `note: --skills ${rules}: left aside 1 Markdown file without front matter (not a skill; text that is always in context belongs in --prompt): ${join(rules, 'README.md')}`,
      `note: --skills ${rules}: left aside 1 rule file with front matter only (no text for the model): ${join(rules, 'default-tools.md')}`,
    ]);
    expect(runCli(['render', agent]).stdout).toMatch(/^## Tools$/m);
    // The same build without the tool list takes out the section the first build gave.
    const again = runCli([
      'harness',
      'build',
      '-o',
      agent,
      '--skills',
      rules,
      '--openai-tools',
      tools,
      '--no-tool-list',
    ]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('prompt sections: removed tools');
    const rendered = runCli(['render', agent]);
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stdout).not.toMatch(/^## Tools$/m);
    expect(rendered.stdout).toContain('- github (reply): Load when a message mentions "github" or "git".');
  }, 60_000);

  it('says when the Tools section pastes descriptions of several lines, and not once it is left out', async () => {
    const multi = join(dir, 'multi-line.json');
    await writeFile(
      multi,
      JSON.stringify([
        {
          type: 'function',
          function: {
            name: 'run_command',
            description: 'Runs a shell command.\n\n## Notes\n* One command at a time.',
            parameters: {
              type: 'object',
              properties: { command: { type: 'string' } },
              required: ['command'],
            },
          },
        },
        { type: 'function', function: { name: 'finish', description: 'Ends the task.' } },
      ]),
    );
    const agent = join(dir, 'multi-line.yaml');
    const run = runCli(['harness', 'build', '-o', agent, '--openai-tools', multi]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.trim()).toBe(
      'note: the Tools section pastes 1 tool whose description spans several lines (run_command), each indented under its item, its own lists and headings included; --no-tool-list leaves it out where the API lists the tools',
    );
    const without = runCli(['harness', 'build', '-o', agent, '--openai-tools', multi, '--no-tool-list']);
    expect(without.status, without.stderr).toBe(0);
    expect(without.stderr).toBe('');
  }, 60_000);

  it("puts a live server's own instructions in the prompt with --mcp-instructions, as the server wrote them", async () => {
    const script = join(projectRoot, 'test/support/mcp-instructions-server.mjs');
    const { instructions } = await import(script);
    const server = `"${process.execPath}" "${script}"`;
    const withThem = join(dir, 'github.yaml');
    const run = runCli(['harness', 'build', '-o', withThem, '--mcp-command', server, '--mcp-instructions']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 tool, 0 skills, 3 prompt sections');
    const rendered = runCli(['render', withThem]);
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain(
      `## github-mcp-server instructions\n${instructions}\n\nWrite {{owner}}/{{repo}} as the repository's full name.\n`,
    );
    // Without the option the build reads the tools only; a server without instructions is named.
    const without = join(dir, 'github-tools.yaml');
    expect(runCli(['harness', 'build', '-o', without, '--mcp-command', server]).status).toBe(0);
    expect(runCli(['render', without]).stdout).not.toContain('instructions');
    const memory = runCli([
      'harness',
      'build',
      '-o',
      join(dir, 'memory.yaml'),
      '--mcp-command',
      memoryServer,
      '--mcp-instructions',
    ]);
    expect(memory.status, memory.stderr).toBe(0);
    expect(memory.stderr).toBe(`note: --mcp-command ${memoryServer}: the server gives no instructions\n`);
  }, 60_000);

  it('refuses a tool two sources define, naming both (exit 2)', async () => {
    const twice = join(dir, 'twice.json');
    await writeFile(
      twice,
      JSON.stringify([{ type: 'function', function: { name: 'read_graph', description: 'Ours.' } }]),
    );
    const run = runCli([
      'harness',
      'build',
      '-o',
      join(dir, 'twice.yaml'),
      '--mcp-command',
      memoryServer,
      '--openai-tools',
      twice,
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `hsa: tool "read_graph" is defined by both --mcp-command ${memoryServer} and --openai-tools ${twice}; remove it from one of them\n`,
    );
  }, 60_000);

  it('refuses a bad source file with one located line (exit 2), and writes nothing', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(
      broken,
      '[\n  { "type": "function", "function": { "name": "ok" } },\n  { "type": "function" }\n]\n',
    );
    const target = join(dir, 'never.yaml');
    const run = runCli(['harness', 'build', '-o', target, '--openai-tools', broken]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      `hsa: ${broken}:3 $[1].name: the tool has no name [missing_name]`,
    ]);
    const torn = join(dir, 'torn.yaml');
    await writeFile(torn, '- id: a\n  stage: [\n');
    const hooks = runCli(['harness', 'build', '-o', target, '--hooks', torn]);
    expect(hooks.status).toBe(2);
    expect(hooks.stderr).toMatch(/^hsa: .*torn\.yaml:\d+:\d+: invalid YAML/);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('refuses a built harness that breaks a rule, naming the source of the item (exit 1)', async () => {
    const hooks = join(dir, 'hooks.yaml');
    await writeFile(
      hooks,
      '- id: roaming_first\n  stage: pre_tool\n  tools: [enable_roaming]\n  check: { type: skill_loaded, skill: data-roaming, scope: conversation }\n  onFail: { action: block }\n',
    );
    const run = runCli(['harness', 'build', '-o', join(dir, 'rule.yaml'), '--hooks', hooks]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`(from --hooks ${hooks})`);
  }, 60_000);

  it('never writes over one of its inputs', async () => {
    const run = runCli(['harness', 'build', '-o', tools, '--openai-tools', tools]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cannot write: it is the input --openai-tools/);
    const record = join(dir, 'inputs.build.json');
    await writeFile(record, '[]');
    const beside = runCli(['harness', 'build', '-o', join(dir, 'inputs.yaml'), '--hooks', record]);
    expect(beside.status).toBe(2);
    expect(beside.stderr).toMatch(/inputs\.build\.json: cannot write: it is the input --hooks/);
    expect(await readFile(record, 'utf8')).toBe('[]');
  }, 60_000);

  it('says why an MCP server cannot be listed, and gives up on a silent one (exit 2)', () => {
    const run = runCli([
      'harness',
      'build',
      '-o',
      join(dir, 'down.yaml'),
      '--mcp-command',
      `"${process.execPath}" -e "process.exit(3)"`,
      '--timeout',
      '10',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^hsa: --mcp-command .*: cannot connect to the MCP server/);
    // A process that never answers is given up after --timeout, not waited on.
    const silent = runCli([
      'harness',
      'build',
      '-o',
      join(dir, 'silent.yaml'),
      '--mcp-command',
      `"${process.execPath}" -e "setInterval(() => {}, 1000)"`,
      '--timeout',
      '1',
    ]);
    expect(silent.status).toBe(2);
    expect(silent.stderr).toMatch(/cannot connect to the MCP server .*Request timed out/);
  }, 60_000);
});

describe('hsa harness build --openai-tools with BFCL function docs', () => {
  it('reads the JSON Lines file of bare functions, their Python type names and response schemas', async () => {
    const bfcl = join(projectRoot, 'fixtures/importers/bfcl-travel-booking.json');
    const out = join(dir, 'bfcl.yaml');
    const run = runCli(['harness', 'build', '-o', out, '--openai-tools', bfcl]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^created .*bfcl\.yaml: harness "bfcl" from 1 source: 4 tools, 0 skills/);
    expect(run.stderr.trim().split('\n')).toEqual([
      `note: --openai-tools ${bfcl}: read Python type names as JSON Schema types: dict → object (9 places), float → number (3 places)`,
      `note: --openai-tools ${bfcl}: kept the response schema of 4 tools as their outputSchema (written by \`hsa export mcp\`; an OpenAI tool has no field for it)`,
    ]);
    const text = await readFile(out, 'utf8');
    expect(text).toContain('- name: compute_exchange_rate');
    expect(text).not.toMatch(/type: (dict|float)$/m);
    expect(runCli(['validate', out]).status).toBe(0);
  }, 60_000);

  it('names a type that JSON Schema does not know, and its line', async () => {
    const file = join(dir, 'java.json');
    await writeFile(
      file,
      '{"name": "a", "parameters": {"type": "dict", "properties": {}}}\n{"name": "b", "parameters": {"type": "dict", "properties": {"m": {"type": "HashMap"}}}}\n',
    );
    const run = runCli(['harness', 'build', '-o', join(dir, 'java.yaml'), '--openai-tools', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `hsa: ${file}:2 $[1].parameters.properties.m.type: "HashMap" is not a JSON Schema type (string, number, integer, boolean, object, array, null) [invalid_json_schema]\n`,
    );
  });
});
