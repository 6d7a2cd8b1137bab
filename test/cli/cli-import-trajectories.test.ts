// `hsa import trajectories` on the helpdesk raw logs: what it writes validates and equals the gold it was
// logged from, and three kinds of irreconcilable lines (plus a torn one) land in the rejects file with
// their line and reason, the counts reconciling.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { hsa } from '../support/run-hsa.js';

const harness = 'fixtures/helpdesk/harness.yaml';
const rawLogs = 'fixtures/helpdesk/raw-logs.jsonl';
const aliases = 'fixtures/helpdesk/aliases.yaml';
let folder: string;

const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-import-logs-'));
});

/** A raw log line as production writes it: rendered system prompt, `{"loaded": …}`, no markers. */
function plantedLog(id: string, turns: Array<Record<string, unknown>>) {
  const source = JSON.parse(readFileSync(rawLogs, 'utf8').split('\n')[0]!) as {
    context: unknown;
    messages: Array<{ role: string; content: string }>;
  };
  return JSON.stringify({
    request_id: `req_${id}`,
    conversation_id: id,
    timestamp: '2026-11-30T09:00:00.000Z',
    context: source.context,
    messages: [source.messages[0], ...turns],
  });
}

const loadCall = (id: string, skill: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    {
      id,
      type: 'function',
      function: { name: 'load_skill', arguments: JSON.stringify({ skill_id: skill }) },
    },
  ],
});
const call = (id: string, name: string, args: unknown) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: unknown) => ({
  role: 'tool',
  tool_call_id: id,
  content: typeof content === 'string' ? content : JSON.stringify(content),
});

describe('hsa import trajectories', () => {
  it('turns the 20 raw helpdesk logs into trajectories that validate and equal their gold', async () => {
    const out = join(folder, 'imported.jsonl');
    const run = await hsa([
      'import',
      'trajectories',
      '--harness',
      harness,
      rawLogs,
      '-o',
      out,
      '--aliases',
      aliases,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('read 20 log lines: 20 written + 0 rejected');
    expect(run.stdout).toMatch(/[1-9]\d* hook decisions marked/);
    const validate = await hsa(['validate', harness, '--trajectories', out]);
    expect(validate.stdout).toContain('20 read, 20 valid, 0 invalid');
    expect(validate.status).toBe(0);

    const gold = new Map(
      (jsonl('fixtures/helpdesk/trajectories.jsonl') as Trajectory[]).map((trajectory) => [
        trajectory.id,
        trajectory,
      ]),
    );
    const imported = jsonl(out) as Trajectory[];
    for (const trajectory of imported) {
      const original = gold.get(trajectory.id.replace('conv-', 'hd-'))!;
      expect(trajectory.messages).toEqual(original.messages);
      expect(trajectory.context).toEqual(original.context);
      expect(trajectory.meta!.import as { log: Record<string, unknown> }).toHaveProperty('log.request_id');
    }
    // Hook retries were unmarked in the logs; the import marked them as the validator expects.
    expect(
      imported.filter((trajectory) => trajectory.messages.some((message) => 'hsa' in message && message.hsa))
        .length,
    ).toBeGreaterThanOrEqual(10);

    // Same input, same bytes.
    const again = join(folder, 'imported-again.jsonl');
    await hsa(['import', 'trajectories', '--harness', harness, rawLogs, '-o', again, '--aliases', aliases]);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('rejects what it cannot reconcile, with line and reason, and the counts add up', async () => {
    const logs = readFileSync(rawLogs, 'utf8').trimEnd().split('\n');
    const planted = [
      // 21: a tool that the harness does not offer and no alias maps.
      plantedLog('conv-unknown-tool', [
        { role: 'user', content: 'my router at home is broken' },
        loadCall('c1', 'device-troubleshooting'),
        result('c1', { loaded: 'device-troubleshooting' }),
        call('c2', 'reboot_router', { site: 'home' }),
        result('c2', { ok: true }),
        { role: 'assistant', content: 'I rebooted it.' },
      ]),
      // 22: arguments invalid under the schema, run by the logging system and never corrected.
      plantedLog('conv-bad-arguments', [
        { role: 'user', content: 'please open a ticket, my dock is dead' },
        loadCall('c1', 'ticket-intake'),
        result('c1', { loaded: 'ticket-intake' }),
        call('c2', 'create_ticket', {
          requester_id: 'U20417',
          category: 'hardware',
          priority: 'urgent',
          summary: 'Dock is dead',
        }),
        result('c2', { ticket_id: 'INC-40401', target_response: '2 hours' }),
        { role: 'assistant', content: 'Opened INC-40401; target response 2 hours.' },
      ]),
      // 23: a skill id that does not exist.
      plantedLog('conv-unknown-skill', [
        { role: 'user', content: 'vpn is slow' },
        loadCall('c1', 'vpn-wizard'),
        result('c1', { loaded: 'vpn-wizard' }),
        { role: 'assistant', content: 'Try reconnecting.' },
      ]),
      // 24: a torn line.
      plantedLog('conv-torn', [{ role: 'user', content: 'hello' }]).slice(0, 180),
    ];
    const file = join(folder, 'with-planted.jsonl');
    writeFileSync(file, `${[...logs, ...planted].join('\n')}\n`);
    const out = join(folder, 'planted.jsonl');
    const rejects = join(folder, 'planted.rejects.jsonl');
    const run = await hsa([
      'import',
      'trajectories',
      '--harness',
      harness,
      file,
      '-o',
      out,
      '--rejects',
      rejects,
      '--aliases',
      aliases,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('read 24 log lines: 20 written + 4 rejected');
    expect(run.stdout).toContain(
      'rejected by reason: invalid_json 1, rejected_call_not_retried 1, unknown_skill 1, unknown_tool 1',
    );
    const rows = jsonl(rejects) as Array<{ line: number; reason: string; message: string; id?: string }>;
    expect(rows.map(({ line, reason, id }) => ({ line, reason, id }))).toEqual([
      { line: 21, reason: 'unknown_tool', id: 'conv-unknown-tool' },
      { line: 22, reason: 'rejected_call_not_retried', id: 'conv-bad-arguments' },
      { line: 23, reason: 'unknown_skill', id: 'conv-unknown-skill' },
      { line: 24, reason: 'invalid_json', id: undefined },
    ]);
    expect(rows[0]!.message).toContain('"reboot_router"');
    expect(rows[1]!.message).toContain('priority');
    expect(rows[1]!.message).toContain('tool_arguments_valid');
    expect(rows[2]!.message).toContain('"vpn-wizard"');
    expect(rows[3]!.message).toMatch(/invalid JSON at column \d+/);
    expect(jsonl(out)).toHaveLength(20);
    expect((await hsa(['validate', harness, '--trajectories', out])).status).toBe(0);
  });

  it('without the alias map, legacy names are rejects that name the name', async () => {
    const out = join(folder, 'no-aliases.jsonl');
    const run = await hsa(['import', 'trajectories', '--harness', harness, rawLogs, '-o', out]);
    expect(run.status).toBe(1);
    const rows = jsonl(join(folder, 'no-aliases.rejects.jsonl')) as Array<{
      reason: string;
      message: string;
    }>;
    const { written, rejected } = run.stdout.match(/(?<written>\d+) written \+ (?<rejected>\d+) rejected/)!
      .groups!;
    expect(Number(written) + Number(rejected)).toBe(20);
    expect(rows).toHaveLength(Number(rejected));
    expect(rows.every((row) => ['unknown_tool', 'unknown_skill'].includes(row.reason))).toBe(true);
    expect(
      rows.some((row) =>
        /"(verify_user|pw_reset|kb_answer|user_lookup|search_kb|open_ticket|service_health)"/.test(
          row.message,
        ),
      ),
    ).toBe(true);
  });

  it('bad options are usage errors', async () => {
    const run = await hsa([
      'import',
      'trajectories',
      '--harness',
      harness,
      rawLogs,
      '-o',
      join(folder, 'x.jsonl'),
      '--system',
      'rewrite',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--system must be keep or render');
  });
});
