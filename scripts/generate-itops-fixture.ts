// Generates fixtures/itops: 400 single-turn trajectories of an on-call assistant (alert triage, rollbacks,
// scaling, log search, incidents, certificates, latency reports, chit-chat), each played through the real
// runtime (`Episode`: prompt rendering, hooks, tool results) under fixtures/itops/harness.yaml, and one bench
// item per trajectory (`itemFromTrajectory`: the gold's calls, skills and the reply hooks' banned terms), so
// the items file names every trajectory. Deterministic: the same files on every run and machine.
//
//   npx tsx scripts/generate-itops-fixture.ts           # write the fixture
//   npx tsx scripts/generate-itops-fixture.ts --check   # exit 1 when the files on disk are stale
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom, type Random } from '../src/augment/random.js';
import { itemFromTrajectory } from '../src/demo/derive-items.js';
import { hashHarness } from '../src/harness/hash.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import type { Harness } from '../src/harness/schema.js';
import { Episode } from '../src/runtime/episode.js';
import { toolsFromFunctions } from '../src/runtime/tool-runtime.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';

const SEED = 'itops-2026-12';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtureDir = join(root, 'fixtures', 'itops');

type Json = Record<string, unknown>;
type Call = [name: string, args: Json];

const SERVICES = [
  'checkout',
  'payments',
  'search',
  'auth',
  'catalog',
  'notifications',
  'billing',
  'gateway',
  'inventory',
  'reports',
] as const;
const TEAMS = ['platform', 'database', 'network', 'security'] as const;
const DOMAINS = [
  'api.fernhill.io',
  'shop.fernhill.io',
  'status.fernhill.io',
  'auth.fernhill.io',
  'cdn.fernhill.io',
  'admin.fernhill.io',
  'partners.fernhill.io',
];
const ENGINEERS = ['Priya Raman', 'Tomasz Nowak', 'Aiko Sato', 'Diego Alvarez', 'Femi Adeyemi'];
const REGIONS = ['eu-west-1', 'us-east-2', 'ap-south-1'];

/** Deterministic tool results: every number comes from the arguments' own seed. */
function createTools() {
  const draw = (name: string, args: Json) => createRandom(`${SEED}/tool/${name}/${JSON.stringify(args)}`);
  let incidents = 0;
  return {
    ack_alert: ({ alert_id }: Json) => ({ alert_id, acknowledged: true, paging_stopped: true }),
    service_health: (args: Json) => {
      const rng = draw('service_health', args);
      const status = rng.pick(['healthy', 'degraded', 'degraded', 'down']);
      return {
        service: args.service,
        status,
        error_rate_percent: status === 'healthy' ? rng.int(0, 1) : rng.int(3, 40),
        p95_ms: rng.int(80, 2400),
        last_deploy_minutes_ago: rng.int(5, 600),
      };
    },
    read_metric: (args: Json) => {
      const rng = draw('read_metric', args);
      const thresholds: Record<string, number> = { cpu: 80, memory: 85, latency_p95: 500, error_rate: 2 };
      const threshold = thresholds[String(args.metric)] ?? 1;
      const value = rng.int(Math.floor(threshold / 3), threshold * 2);
      return {
        service: args.service,
        metric: args.metric,
        window_minutes: args.window_minutes ?? 60,
        value,
        threshold,
        above: value > threshold,
      };
    },
    grep_logs: (args: Json) => {
      const rng = draw('grep_logs', args);
      const count = rng.int(0, 3);
      return {
        service: args.service,
        matches: Array.from({ length: count }, (_, index) => ({
          at: `${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(index * 7).padStart(2, '0')}`,
          line: `${String(args.level).toUpperCase()} ${args.pattern} in ${args.service} handler`,
        })),
      };
    },
    list_releases: (args: Json) => {
      const rng = draw('list_releases', args);
      const current = rng.int(2000, 9000);
      return {
        service: args.service,
        releases: [
          { release_id: `R-${current}`, kind: 'code', deployed_minutes_ago: rng.int(5, 90) },
          {
            release_id: `R-${current - rng.int(1, 40)}`,
            kind: 'code',
            deployed_minutes_ago: rng.int(200, 4000),
          },
        ],
      };
    },
    rollback_release: (args: Json) => ({
      service: args.service,
      live_release: args.release_id,
      status: 'rolled_back',
    }),
    set_replicas: (args: Json) => {
      const rng = draw('set_replicas', args);
      return { service: args.service, previous_replicas: rng.int(2, 12), replicas: args.replicas };
    },
    open_incident: (args: Json) => {
      incidents++;
      const rng = draw('open_incident', args);
      return {
        incident_id: `INC-${String(rng.int(100, 9999)).padStart(4, '0')}`,
        severity: args.severity,
        opened: incidents,
      };
    },
    page_team: (args: Json) => ({ team: args.team, incident_id: args.incident_id, paged: true }),
    cert_status: (args: Json) => {
      const rng = draw('cert_status', args);
      const days = rng.int(2, 120);
      return {
        domain: args.domain,
        days_left: days,
        expires: `2027-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
        auto_renew: rng.chance(0.6),
        issuer: rng.pick(["Let's Encrypt", 'DigiCert']),
      };
    },
  };
}

class ScriptError extends Error {}

/** Drives one Episode and checks that no hook fires (every script plays a clean turn). */
class Player {
  readonly episode: Episode;
  constructor(
    harness: Harness,
    context: Json,
    readonly id: string,
  ) {
    this.episode = new Episode({
      harness,
      context,
      tools: toolsFromFunctions(createTools() as unknown as Record<string, (args: Json) => unknown>),
      toolTimeoutMs: 60_000,
      now: () => 0,
    });
  }

  private clean(events: Array<{ hook: string; outcome: string }>, what: string) {
    if (events.length > 0)
      throw new ScriptError(
        `${this.id}: ${what}: hook events ${events.map((event) => `${event.hook}:${event.outcome}`).join(', ')}`,
      );
  }

  async say(text: string) {
    this.clean((await this.episode.user(text)).hookEvents, 'message');
  }

  /** One assistant message: runbook reads first, then registry calls; returns the parsed registry results. */
  async step(loads: string[], calls: Call[] = []): Promise<Json[]> {
    const loader = this.episode.harness.skills.loader;
    const all: Call[] = [...loads.map((id): Call => [loader.tool, { [loader.argument]: id }]), ...calls];
    const observation = await this.episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: all.map(([name, args]) => ({
        id: '',
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      })),
    });
    this.clean(observation.hookEvents, `calls ${all.map(([name]) => name).join(', ')}`);
    return observation.tools.slice(loads.length).map((tool) => {
      if (tool.error) throw new ScriptError(`${this.id}: ${tool.name} failed: ${tool.content}`);
      return JSON.parse(tool.content) as Json;
    });
  }

  async reply(text: string) {
    const observation = await this.episode.assistant({ role: 'assistant', content: text });
    this.clean(observation.hookEvents, `reply ${JSON.stringify(text.slice(0, 60))}`);
    if (observation.end !== 'reply')
      throw new ScriptError(`${this.id}: reply did not end the turn (${observation.end})`);
  }
}

interface Script {
  kind: string;
  play(player: Player, rng: Random): Promise<void>;
}

const fill = (rng: Random, templates: readonly string[], slots: Record<string, string | number>) =>
  rng.pick(templates).replace(/\{(\w+)\}/g, (_, key: string) => String(slots[key]));

const alertId = (rng: Random) => `AL-${String(rng.int(1, 9999)).padStart(4, '0')}`;

const triage: Script = {
  kind: 'alert_triage',
  async play(player, rng) {
    const service = rng.pick(SERVICES);
    const alert = alertId(rng);
    await player.say(
      fill(
        rng,
        [
          '{alert} is firing for {service}, can you take a look?',
          'pager went off: {alert} on {service}. triage please',
          'Got paged for {alert} ({service}). What is going on?',
          'can you ack {alert} and tell me how {service} looks',
          '{service} alert {alert} again. check it?',
        ],
        { alert, service },
      ),
    );
    await player.step(['alert-triage', 'latency-report']);
    const [, health] = await player.step(
      [],
      [
        ['ack_alert', { alert_id: alert }],
        ['service_health', { service }],
      ],
    );
    const h = health as Json;
    await player.reply(
      `Acknowledged ${alert}. ${service} is ${h.status}: error rate ${h.error_rate_percent}%, p95 ${h.p95_ms} ms, last deploy ${h.last_deploy_minutes_ago} minutes ago. ${h.status === 'healthy' ? 'Nothing else to do for now.' : 'Do you want me to open an incident or roll back?'}`,
    );
  },
};

const rollback: Script = {
  kind: 'rollback',
  async play(player, rng) {
    const service = rng.pick(SERVICES);
    await player.say(
      fill(
        rng,
        [
          'the last {service} release is broken, roll it back',
          'Please roll back {service} to the previous release',
          'revert the {service} deploy, errors since it went out',
          '{service} deploy went bad. undo it?',
          'can you do a rollback of {service}',
        ],
        { service },
      ),
    );
    await player.step(['rollback-procedure']);
    const [list] = await player.step([], [['list_releases', { service, limit: 2 }]]);
    const releases = (list as { releases: Array<{ release_id: string }> }).releases;
    const previous = releases[1]?.release_id as string;
    const reason = rng.pick(['errors after the last deploy', 'broken release', 'requested by on-call']);
    await player.step([], [['rollback_release', { service, release_id: previous, reason }]]);
    await player.reply(
      `${service} is back on ${previous} (rolled back from ${releases[0]?.release_id}). Watch the error rate for the next fifteen minutes.`,
    );
  },
};

const scaling: Script = {
  kind: 'scaling',
  async play(player, rng) {
    const service = rng.pick(SERVICES);
    const replicas = rng.int(2, 48);
    const window = rng.pick([15, 30, 60]);
    await player.say(
      fill(
        rng,
        [
          'scale {service} to {replicas} replicas, cpu looks hot over the last {window} minutes',
          'Can you bump {service} up to {replicas} pods? check cpu for {window} minutes first',
          'traffic spike on {service}: set it to {replicas} replicas (look at {window} min of cpu)',
          'please resize {service} to {replicas} instances, cpu window {window} minutes',
        ],
        { service, replicas, window },
      ),
    );
    await player.step(['capacity-scaling']);
    const [metric] = await player.step(
      [],
      [['read_metric', { service, metric: 'cpu', window_minutes: window }]],
    );
    const [scaled] = await player.step([], [['set_replicas', { service, replicas }]]);
    await player.reply(
      `CPU of ${service} over ${window} minutes: ${(metric as Json).value}% (threshold ${(metric as Json).threshold}%). Replicas: ${(scaled as Json).previous_replicas} before, ${replicas} now. Watch CPU settle over the next minutes.`,
    );
  },
};

const PATTERNS = ['timeout', 'connection refused', 'null pointer', 'out of memory', '503', 'deadlock'];
const logs: Script = {
  kind: 'log_search',
  async play(player, rng) {
    const service = rng.pick(SERVICES);
    const pattern = rng.pick(PATTERNS);
    const level = rng.chance(0.75) ? 'error' : 'warn';
    await player.say(
      fill(
        rng,
        [
          'search the {service} logs for "{pattern}" {levelWord}',
          'any "{pattern}" {levelWord} in {service} logs?',
          'grep {service} for {pattern} please, {levelWord} only',
          'Can you look through the {service} logs for {pattern}? {levelWord}',
        ],
        { service, pattern, levelWord: level === 'error' ? 'errors' : 'warnings' },
      ),
    );
    await player.step(['log-search']);
    const [found] = await player.step([], [['grep_logs', { service, level, pattern }]]);
    const matches = (found as { matches: Array<{ at: string; line: string }> }).matches;
    await player.reply(
      matches.length === 0
        ? `No ${level} lines with "${pattern}" in ${service}. Want me to widen the window?`
        : `${matches.length} ${level} line(s) in ${service}: ${matches.map((match) => `${match.at} ${match.line}`).join('; ')}. Check what changed around the first one.`,
    );
  },
};

const incident: Script = {
  kind: 'incident',
  async play(player, rng) {
    const services = rng.sample([...SERVICES], rng.int(1, 2));
    const severity = rng.pick(['sev1', 'sev2', 'sev3'] as const);
    const team = rng.pick(TEAMS);
    const symptom = rng.pick(['is down', 'is returning errors', 'is very slow', 'is timing out']);
    const what = services.join(' and ');
    await player.say(
      fill(
        rng,
        [
          'declare a {severity} incident: {what} {symptom}. page {team}',
          'we need an incident, {what} {symptom}, {severity}, get {team} on it',
          'Open a {severity} for {what} ({symptom}) and page the {team} team',
          '{what} {symptom} - incident please, {severity}, {team} owns it',
        ],
        { severity, what, symptom, team },
      ),
    );
    await player.step(['incident-declaration']);
    const title = `${what} ${symptom}`.padEnd(10, '.');
    const [opened] = await player.step([], [['open_incident', { title, severity, services }]]);
    const incidentId = (opened as Json).incident_id as string;
    await player.step([], [['page_team', { team, incident_id: incidentId }]]);
    await player.reply(
      `Opened ${incidentId} (${severity}) for ${what} and paged ${team}. Post updates in the incident channel.`,
    );
  },
};

const certificate: Script = {
  kind: 'certificate',
  async play(player, rng) {
    const domain = rng.pick(DOMAINS);
    await player.say(
      fill(
        rng,
        [
          'when does the cert for {domain} expire?',
          'check the TLS certificate of {domain}',
          'is the {domain} certificate about to run out?',
          'Certificate status for {domain} please',
        ],
        { domain },
      ),
    );
    await player.step(['certificate-check']);
    const [cert] = await player.step([], [['cert_status', { domain }]]);
    const c = cert as Json;
    const low = (c.days_left as number) < 14 && !c.auto_renew;
    await player.reply(
      `${domain} expires on ${c.expires} (${c.days_left} days left), auto-renew ${c.auto_renew ? 'on' : 'off'}, issuer ${c.issuer}.${low ? ' I suggest a sev3 incident to renew it.' : ''}`,
    );
  },
};

const latency: Script = {
  kind: 'latency_report',
  async play(player, rng) {
    const service = rng.pick(SERVICES);
    const metric = rng.chance(0.5) ? 'latency_p95' : 'error_rate';
    const window = rng.pick([30, 60, 120, 240]);
    const word =
      metric === 'latency_p95'
        ? rng.pick(['p95 latency', 'latency', 'response time'])
        : rng.pick(['error rate', 'errors', '5xx rate']);
    await player.say(
      fill(
        rng,
        [
          "what's the {word} of {service} over the last {window} minutes?",
          'how is {service} doing on {word}, last {window} min',
          '{service} {word} for the past {window} minutes?',
          'Report {word} for {service} ({window} minutes)',
        ],
        { word, service, window },
      ),
    );
    await player.step(['latency-report']);
    const [value] = await player.step([], [['read_metric', { service, metric, window_minutes: window }]]);
    const v = value as Json;
    await player.reply(
      `${service} ${metric} over ${window} minutes: ${v.value} (threshold ${v.threshold}), ${v.above ? 'above' : 'below'} the threshold.`,
    );
  },
};

const chitChat: Script = {
  kind: 'chit_chat',
  async play(player, rng) {
    await player.say(
      rng.pick([
        'thanks!',
        'hello',
        'are you a bot?',
        'good morning',
        'cheers, that helped',
        'who is on call today?',
      ]),
    );
    await player.step(['chit-chat']);
    await player.reply(
      rng.pick([
        'Happy to help. What else is on fire?',
        'Hi! I am the on-call assistant; what do you need?',
        'I am an automated assistant; the human on-call engineer is in the session details.',
      ]),
    );
  },
};

/** 400 scripts in a seeded order. */
function plan(): Script[] {
  const counts: Array<[Script, number]> = [
    [triage, 60],
    [rollback, 55],
    [scaling, 55],
    [logs, 55],
    [incident, 50],
    [certificate, 45],
    [latency, 55],
    [chitChat, 25],
  ];
  return createRandom(`${SEED}/plan`).shuffle(
    counts.flatMap(([script, count]) => Array.from({ length: count }, () => script)),
  );
}

function makeContext(rng: Random): Json {
  const alerts = rng.chance(0.5)
    ? [
        {
          id: alertId(rng),
          service: rng.pick(SERVICES),
          summary: rng.pick(['error rate above 2%', 'p95 above 500 ms', 'pods restarting']),
        },
      ]
    : [];
  return {
    team: { name: 'Fernhill', on_call: rng.pick(ENGINEERS) },
    session: {
      region: rng.pick(REGIONS),
      local_time: `${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`,
      change_freeze: rng.chance(0.1) ? 'yes' : 'no',
    },
    alerts,
  };
}

async function main() {
  const check = process.argv.includes('--check');
  const harness = await loadHarnessFile(join(fixtureDir, 'harness.yaml'));
  const hash = hashHarness(harness).harness;
  const lines: string[] = [];
  const items: string[] = [];
  const issues: string[] = [];
  const byKind = new Map<string, number>();
  for (const [index, script] of plan().entries()) {
    const id = `ops-${String(index + 1).padStart(4, '0')}`;
    const rng = createRandom(`${SEED}:${id}`);
    const player = new Player(harness, makeContext(rng.fork('context')), id);
    try {
      await script.play(player, rng.fork('play'));
    } finally {
      player.episode.close();
    }
    const trajectory = player.episode.trajectory(id, {
      scenario: script.kind,
      source: 'scripts/generate-itops-fixture.ts',
    });
    trajectory.harness = { id: harness.id, hash };
    const validation = validateTrajectory(trajectory, harness);
    issues.push(
      ...validation.issues.map(
        (issue) => `${id} ${JSON.stringify(issue.path)} ${issue.code}: ${issue.message}`,
      ),
    );
    lines.push(JSON.stringify(trajectory));
    items.push(JSON.stringify(itemFromTrajectory(harness, trajectory, `item-${id}`)));
    byKind.set(script.kind, (byKind.get(script.kind) ?? 0) + 1);
  }
  const example = JSON.parse(lines[0] as string).context;
  const outputs: Array<[string, string]> = [
    [join(fixtureDir, 'trajectories.jsonl'), `${lines.join('\n')}\n`],
    [join(fixtureDir, 'bench', 'items.jsonl'), `${items.join('\n')}\n`],
    [join(fixtureDir, 'contexts', 'example.json'), `${JSON.stringify(example, null, 2)}\n`],
  ];
  console.log(
    `trajectories: ${lines.length} (${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ')}); bench items: ${items.length}`,
  );
  if (issues.length > 0) {
    console.error(`${issues.length} validator issue(s):\n  ${issues.slice(0, 20).join('\n  ')}`);
    process.exitCode = 1;
  }
  if (check) {
    for (const [file, content] of outputs)
      if ((await readFile(file, 'utf8').catch(() => '')) !== content) {
        console.error(`stale: ${file}`);
        process.exitCode = 1;
      }
    return;
  }
  for (const [file, content] of outputs) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  console.log(`wrote ${outputs.map(([file]) => file.slice(root.length + 1)).join(', ')}`);
}

await main();
