// A walk told from another (`proveWalk`, `forwardByProof`): wherever it answers, its result is the walk's
// own (`forwardTrajectory`), on the bundled domains and on public harnesses, for the variants the pool draws
// and for variants changed in ways the proof must refuse; and it never answers for a row it does not cover.
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import type { AugmentRow } from '../../src/augment/row.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { createRunContext } from '../../src/harness/run-context.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardFacts } from '../../src/trajectory/facts.js';
import { forwardTrajectory, type Relabel } from '../../src/trajectory/relabel.js';
import { sameJson } from '../../src/trajectory/same-json.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import {
  derivedContent,
  trajectoryWalks,
  validateTrajectory,
} from '../../src/trajectory/validate-trajectory.js';
import { forwardByProof, proveWalk, type WalkProof } from '../../src/trajectory/walk-by-proof.js';

const registry = createRegistry(builtinOperators);

/** The valid trajectories of a JSONL file under the base, as `validateTrajectory` parsed them. */
async function validExamples(base: Harness, file: string, limit: number) {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const examples: Array<{ trajectory: Trajectory; underBase: ReturnType<typeof validateTrajectory> }> = [];
  for (const line of lines) {
    const underBase = validateTrajectory(JSON.parse(line), base);
    if (underBase.valid && underBase.trajectory)
      examples.push({ trajectory: underBase.trajectory, underBase });
    if (examples.length === limit) break;
  }
  return examples;
}

/** Whether the proof's answer, where it gives one, is the walk's: trajectory, issues and decisions. */
function answersAsTheWalk(
  trajectory: Trajectory,
  proof: WalkProof,
  underBase: ReturnType<typeof validateTrajectory>,
) {
  const told = forwardByProof(trajectory, proof, underBase).fact;
  if (!told) return 'declined' as const;
  const walked = forwardTrajectory(trajectory, proof.relabel, proof.harness);
  expect(sameJson(told.trajectory, walked.trajectory)).toBe(true);
  expect(JSON.stringify(told.trajectory)).toBe(JSON.stringify(walked.trajectory));
  expect(told.issues).toEqual(walked.issues);
  expect(JSON.stringify(told.decisions)).toBe(JSON.stringify(walked.decisions));
  return 'answered' as const;
}

/** The variants a pool gives the examples under a policy (rows' harnesses and relabels), distinct. */
async function variantsOf(base: Harness, trajectories: Trajectory[], policy: string, seed: number) {
  const plan = compilePolicy(parsePolicy(presets[policy]), registry);
  const seen = new Map<string, { harness: Harness; relabel: Relabel }>();
  const rows: AugmentRow[] = [];
  for await (const row of augment(base, trajectories, { plan, variants: 4, seed, pool: { size: 12 } })) {
    rows.push(row);
    seen.set(`${row.provenance.pool?.seed}|${row.provenance.pool?.perExample}|${row.exampleId}`, row);
  }
  return { variants: [...new Set([...seen.values()])], rows };
}

const domains = [
  {
    name: 'livestream',
    harness: 'fixtures/livestream/harness.yaml',
    examples: 'fixtures/livestream/trajectories.jsonl',
  },
  {
    name: 'helpdesk',
    harness: 'fixtures/helpdesk/harness.yaml',
    examples: 'fixtures/helpdesk/trajectories.jsonl',
  },
  { name: 'itops', harness: 'fixtures/itops/harness.yaml', examples: 'fixtures/itops/trajectories.jsonl' },
  {
    name: 'τ²-bench telecom',
    harness: 'test/augment/fixtures/public/telecom/harness.yaml',
    examples: 'test/augment/fixtures/public/telecom/gold.jsonl',
  },
  {
    name: "GitHub's MCP search tools",
    harness: 'test/drift/fixtures/github-mcp-search/harness/03-805358b.yaml',
    examples: 'test/drift/fixtures/github-mcp-search/gold.jsonl',
  },
];

describe('walks told from the base walk', () => {
  it.each(domains)(
    'are the walk itself wherever they answer: $name',
    async (domain) => {
      const base = await loadHarnessFile(domain.harness);
      const examples = await validExamples(base, domain.examples, 24);
      let answered = 0;
      for (const policy of ['tools-only', 'rotbench-heavy', 'hat']) {
        const { variants } = await variantsOf(
          base,
          examples.map((example) => example.trajectory),
          policy,
          5,
        );
        for (const { harness, relabel } of variants) {
          const proven = proveWalk(base, harness, relabel);
          if (!('proof' in proven)) continue;
          for (const { trajectory, underBase } of examples)
            if (answersAsTheWalk(trajectory, proven.proof, underBase) === 'answered') answered++;
        }
      }
      // Every domain gives rows the proof answers for (a check that cannot pass by declining everything).
      expect(answered).toBeGreaterThan(0);
    },
    120_000,
  );

  it('answer as the walk, or decline, for variants changed in ways the walk can see', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const examples = await validExamples(base, 'fixtures/livestream/trajectories.jsonl', 40);
    const { variants } = await variantsOf(
      base,
      examples.map((example) => example.trajectory),
      'tools-only',
      3,
    );
    const proven = variants.filter(({ harness, relabel }) => 'proof' in proveWalk(base, harness, relabel));
    expect(proven.length).toBeGreaterThan(0);
    // Each change keeps or breaks what the proof reads; the proof must refuse those the walk can see, and
    // answer as the walk wherever it accepts one.
    const changes: Array<(harness: Harness) => void> = [
      (h) => {
        const tool = h.tools.items[0];
        if (tool) tool.description = `${tool.description} Now reworded.`;
      },
      (h) => {
        const hook = h.hooks.items[0];
        if (hook) hook.enabled = !hook.enabled;
      },
      (h) => void h.hooks.items.reverse(),
      (h) => {
        const hook = h.hooks.items.find((item) => item.check.type === 'max_length');
        if (hook && hook.check.type === 'max_length') hook.check.max = 3;
      },
      (h) => {
        const hook = h.hooks.items.find((item) => item.check.type === 'max_tool_calls');
        if (hook && hook.check.type === 'max_tool_calls') hook.check.max = 0;
      },
      (h) => {
        const hook = h.hooks.items.find((item) => item.tools !== undefined);
        if (hook) hook.tools = [...(hook.tools ?? []), ...h.tools.items.map((tool) => tool.name)];
      },
      (h) => {
        const tool = h.tools.items.find((item) => Object.keys(item.parameters.properties ?? {}).length > 0);
        const properties = tool?.parameters.properties as Record<string, Record<string, unknown>> | undefined;
        const first = properties && Object.keys(properties)[0];
        if (properties && first) properties[first] = { type: 'integer', maximum: 0 };
      },
      (h) => {
        const tool = h.tools.items.find((item) => Object.keys(item.parameters.properties ?? {}).length > 0);
        const properties = tool?.parameters.properties as Record<string, Record<string, unknown>> | undefined;
        const first = properties && Object.keys(properties)[0];
        if (properties && first) properties[first] = { ...properties[first], description: 'reworded' };
      },
      (h) => {
        const skill = h.skills.items[0];
        if (skill) skill.kind = skill.kind === 'reply' ? 'strategy' : 'reply';
      },
      (h) => {
        const skill = h.skills.items[0];
        if (skill) skill.body = `${skill.body}\n\nOne more rule.`;
      },
      (h) => {
        const copy = structuredClone(h.hooks.items.find((item) => item.stage === 'pre_reply'));
        if (copy)
          h.hooks.items.push({ ...copy, id: `${copy.id}_again`, check: { type: 'max_length', max: 5 } });
      },
      (h) => {
        h.skills.loader.argument = `${h.skills.loader.argument}_id`;
      },
      (h) => {
        const section = h.prompt.sections[0];
        if (section) section.template = `${section.template}\nBe brief.`;
      },
    ];
    let answered = 0;
    let refused = 0;
    await fc.assert(
      fc.property(
        fc.integer({ min: 0, max: proven.length - 1 }),
        fc.subarray(
          changes.map((_, index) => index),
          { minLength: 1, maxLength: 3 },
        ),
        fc.integer({ min: 0, max: examples.length - 1 }),
        (which, picked, exampleIndex) => {
          const { harness, relabel } = proven[which] as (typeof proven)[number];
          const changed = structuredClone(harness) as Harness;
          for (const index of picked) changes[index]?.(changed);
          const proof = proveWalk(base, changed, relabel);
          if (!('proof' in proof)) {
            refused++;
            return;
          }
          const { trajectory, underBase } = examples[exampleIndex] as (typeof examples)[number];
          if (answersAsTheWalk(trajectory, proof.proof, underBase) === 'answered') answered++;
        },
      ),
      { numRuns: 300, seed: 41 },
    );
    expect(answered).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  it('are refused where the variant or the relabel is not one a proof covers', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const [first, second] = base.tools.items;
    if (!first || !second) throw new Error('the fixture has two tools');
    const renamed = (map: Record<string, string>): Harness => ({
      ...base,
      tools: {
        ...base.tools,
        items: base.tools.items.map((tool) => ({ ...tool, name: map[tool.name] ?? tool.name })),
      },
    });
    const why = (harness: Harness, relabel: Relabel) => {
      const proven = proveWalk(base, harness, relabel);
      return 'unproven' in proven ? proven.unproven : 'proven';
    };
    const map = { [first.name]: 'fn_a1' };
    expect(why(renamed(map), { steps: [{ type: 'rename_tools', map }] })).toBe('proven');
    // Two names taken to one: a scope naming one would cover calls to the other.
    expect(
      why(renamed(map), { steps: [{ type: 'rename_tools', map: { [first.name]: second.name } }] }),
    ).toMatch(/two names to one/);
    expect(why(base, { steps: [{ type: 'nest_arguments', tool: first.name, under: 'input' }] })).toMatch(
      /nests arguments/,
    );
    // The relabel renames a tool the variant does not offer under that name.
    expect(why(base, { steps: [{ type: 'rename_tools', map }] })).toMatch(/not offered/);
    // A hook whose check is custom reads anything.
    const custom = structuredClone(base);
    const hook = custom.hooks.items.find((item) => item.enabled);
    if (!hook) throw new Error('the fixture has an enabled hook');
    hook.check = { type: 'custom', name: 'anything', params: {} };
    expect(why(custom, { steps: [] })).toMatch(/decides otherwise/);
  });

  it('validates every call to a tool whose arguments are renamed, its own arguments renamed or not', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const examples = await validExamples(base, 'fixtures/livestream/trajectories.jsonl', 400);
    // A call that leaves `quantity` out keeps its arguments' text under a rename of `quantity`; the variant's
    // schema of the tool is its own all the same (here it asks for one more property).
    const name = 'get_price_and_coupons';
    const relabel: Relabel = {
      steps: [
        { type: 'rename_arguments', tool: name, renames: [{ path: [], from: 'quantity', to: 'count' }] },
      ],
    };
    const variant = structuredClone(base) as Harness;
    const tool = variant.tools.items.find((item) => item.name === name);
    const properties = tool?.parameters.properties as Record<string, unknown> | undefined;
    if (!tool || !properties?.quantity) throw new Error(`the fixture's ${name} takes a quantity`);
    properties.count = properties.quantity;
    delete properties.quantity;
    properties.store = { type: 'string' };
    const required = tool.parameters.required;
    tool.parameters.required = [...(Array.isArray(required) ? required : []), 'store'];
    const proven = proveWalk(base, variant, relabel);
    if (!('proof' in proven)) throw new Error(proven.unproven);
    const calling = examples.filter(({ trajectory }) =>
      trajectory.messages.some(
        (message) =>
          message.role === 'assistant' &&
          message.tool_calls?.some(
            (call) => call.function.name === name && !call.function.arguments.includes('quantity'),
          ),
      ),
    );
    expect(calling.length).toBeGreaterThan(0);
    for (const { trajectory, underBase } of calling) {
      expect(forwardTrajectory(trajectory, relabel, variant).issues.length).toBeGreaterThan(0);
      expect(answersAsTheWalk(trajectory, proven.proof, underBase)).toBe('declined');
    }
  });

  it('is not reused for a row it does not cover', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const examples = await validExamples(base, 'fixtures/livestream/trajectories.jsonl', 400);
    const tool = base.tools.items[0];
    if (!tool) throw new Error('the fixture has a tool');
    const map = { [tool.name]: 'fn_b2' };
    const relabel: Relabel = { steps: [{ type: 'rename_tools', map }] };
    const variant: Harness = {
      ...base,
      tools: {
        ...base.tools,
        items: base.tools.items.map((item) => ({ ...item, name: map[item.name] ?? item.name })),
      },
    };
    const proven = proveWalk(base, variant, relabel);
    if (!('proof' in proven)) throw new Error(proven.unproven);
    const { proof } = proven;
    // A tool result that names the tool is renamed: a text a hook reads changed, so the row is walked.
    let naming: (typeof examples)[number] | undefined;
    for (const { trajectory, underBase } of examples) {
      if (!forwardByProof(trajectory, proof, underBase).fact) continue;
      const at = trajectory.messages.findIndex(
        (message, index) => message.role === 'tool' && !derivedContent(underBase.decisions)?.has(index),
      );
      if (at < 0) continue;
      const messages = trajectory.messages.map((message, index) =>
        index === at ? { ...message, content: `${message.content} (from \`${tool.name}\`)` } : message,
      );
      const named = validateTrajectory({ ...trajectory, messages }, base);
      if (named.valid && named.trajectory && !named.decisions.some((decision) => decision.failed)) {
        naming = { trajectory: named.trajectory, underBase: named };
        break;
      }
    }
    if (!naming) throw new Error('no example takes a mention of the tool in a tool result');
    expect(forwardByProof(naming.trajectory, proof, naming.underBase).fact).toBeUndefined();
    expect(answersAsTheWalk(naming.trajectory, proof, naming.underBase)).toBe('declined');
    // An example a hook rejected a step of: its hook turns are the variant's to render, so it is walked.
    const rejected = examples.find(({ underBase }) =>
      underBase.decisions.some((decision) => decision.failed),
    );
    if (!rejected) throw new Error('the fixture has hook rejections');
    expect(forwardByProof(rejected.trajectory, proof, rejected.underBase).fact).toBeUndefined();
    // A covered example is told, not walked; the same proof given with another harness (another content) or
    // another relabel is not read, and the fact is walked.
    const covered = examples.find(
      ({ trajectory, underBase }) => forwardByProof(trajectory, proof, underBase).fact,
    );
    if (!covered) throw new Error('no example is covered');
    const run = createRunContext();
    const before = trajectoryWalks().rederive;
    const told = forwardFacts(covered.trajectory, relabel, variant, run, proof);
    expect(told.byProof).toBe(proof);
    expect(trajectoryWalks().rederive).toBe(before);
    const other: Harness = {
      ...variant,
      tools: {
        ...variant.tools,
        items: variant.tools.items.map((item, index) =>
          index === 1 ? { ...item, description: `${item.description} Reworded.` } : item,
        ),
      },
    };
    const walked = forwardFacts(covered.trajectory, relabel, other, run, proof);
    expect(walked.byProof).toBeUndefined();
    expect(trajectoryWalks().rederive).toBe(before + 1);
    const renamedOtherwise: Relabel = { steps: [{ type: 'rename_tools', map: { [tool.name]: 'fn_c3' } }] };
    forwardFacts(covered.trajectory, renamedOtherwise, variant, run, proof);
    expect(trajectoryWalks().rederive).toBe(before + 2);
  });

  it('spares the walks of the rows a tools-only pool gives, and their certificates say so', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const examples = await validExamples(base, 'fixtures/livestream/trajectories.jsonl', 60);
    const before = trajectoryWalks().rederive;
    const { rows } = await variantsOf(
      base,
      examples.map((example) => example.trajectory),
      'tools-only',
      9,
    );
    const walks = trajectoryWalks().rederive - before;
    const told = rows.filter((row) => row.certificate.proof?.atEntry.includes('hooksAgree'));
    expect(told.length).toBeGreaterThan(rows.length / 2);
    // Rows told from the base walk were not walked (the rest, and the entries' own checks, were).
    expect(walks).toBeLessThanOrEqual(rows.length - told.length);
    for (const row of told) {
      expect(row.certificate.certified).toBe(true);
      expect(row.certificate.proof?.atEntry).toEqual(
        expect.arrayContaining(['validUnderVariant', 'hooksAgree']),
      );
      expect(row.certificate.proof?.perRow).not.toContain('validUnderVariant');
      expect(row.certificate.proof?.perRow).toContain('inverseExact');
      const original = examples.find(({ trajectory }) => trajectory.id === row.exampleId)?.trajectory;
      if (!original) throw new Error('row without its example');
      expect(sameJson(row.trajectory, forwardTrajectory(original, row.relabel, row.harness).trajectory)).toBe(
        true,
      );
    }
  });
});
