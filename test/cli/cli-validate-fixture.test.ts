// The acceptance runs of `hsa validate` on the fixture, and on a copy with three planted faults.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { hsa } from '../support/run-hsa.js';

const harnessFile = 'fixtures/livestream/harness.yaml';
const trajectoriesFile = 'fixtures/livestream/trajectories.jsonl';

describe('hsa validate on the fixture', () => {
  it('exits 0 and reports the counts', async () => {
    const run = await hsa(['validate', harnessFile, '--trajectories', trajectoriesFile]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^fixtures\/livestream\/harness\.yaml: valid harness "livestream-commerce" \(\d+ skills, \d+ hooks, \d+ prompt sections, \d+ tools\)$/,
    );
    expect(lines[1]).toMatch(
      /^fixtures\/livestream\/trajectories\.jsonl: (\d+) read, \1 valid, 0 invalid \(valid ones hold \d+ turns, \d+ tool calls, \d+ skill loads, \d+ hook rejections\)$/,
    );
  });

  it('names three planted faults with their line and JSON path, and exits 1', async () => {
    const lines = readFileSync(trajectoriesFile, 'utf8').trimEnd().split('\n');
    const edit = (index: number, change: (trajectory: Trajectory) => string) => {
      const trajectory = JSON.parse(lines[index] as string) as Trajectory;
      const path = change(trajectory);
      lines[index] = JSON.stringify(trajectory);
      return { line: index + 1, path };
    };
    /** The first tool call of a trajectory that matches, and its JSON path. */
    const findCall = (trajectory: Trajectory, match: (name: string) => boolean) => {
      for (const [messageIndex, message] of trajectory.messages.entries()) {
        if (message.role !== 'assistant' || !message.tool_calls || message.hsa) continue;
        for (const [callIndex, call] of message.tool_calls.entries()) {
          if (match(call.function.name))
            return { call, path: `$.messages[${messageIndex}].tool_calls[${callIndex}].function` };
        }
      }
      throw new Error('no such call');
    };
    const unknownTool = edit(3, (trajectory) => {
      const { call, path } = findCall(trajectory, (name) => name !== 'load_skill');
      call.function.name = 'get_coupon_secret';
      return `${path}.name`;
    });
    const wrongType = edit(10, (trajectory) => {
      const { call, path } = findCall(trajectory, (name) => name !== 'load_skill');
      const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
      const key =
        Object.keys(args).find((name) => typeof args[name] === 'number') ?? (Object.keys(args)[0] as string);
      args[key] = typeof args[key] === 'number' ? `#${args[key]}` : 12345;
      call.function.arguments = JSON.stringify(args);
      return `${path}.arguments`;
    });
    const missingSkill = edit(20, (trajectory) => {
      const { call, path } = findCall(trajectory, (name) => name === 'load_skill');
      call.function.arguments = JSON.stringify({ skill_id: 'vip_upsell_secret' });
      return `${path}.arguments`;
    });
    const folder = mkdtempSync(join(tmpdir(), 'hsa-faults-'));
    const broken = join(folder, 'trajectories.jsonl');
    writeFileSync(broken, `${lines.join('\n')}\n`);

    const run = await hsa(['validate', harnessFile, '--trajectories', broken]);
    expect(run.status).toBe(1);
    const out = run.stdout;
    expect(out).toContain(
      `${broken}:${unknownTool.line} ${unknownTool.path}: tool "get_coupon_secret" does not exist in the harness [unknown_tool]`,
    );
    expect(out).toMatch(
      new RegExp(
        `${broken}:${wrongType.line} ${wrongType.path.replaceAll(/[.[\]$]/g, '\\$&')}: arguments of "[\\w-]+": .* must be \\w+ \\[invalid_arguments\\]`,
      ),
    );
    expect(out).toContain(
      `${broken}:${missingSkill.line} ${missingSkill.path}: skill "vip_upsell_secret" does not exist in the harness [unknown_skill]`,
    );
    expect(out).toMatch(/: \d+ read, \d+ valid, 3 invalid/);
  });
});
