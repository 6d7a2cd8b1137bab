// Generates the bundled IT-helpdesk fixture from one seed:
//   fixtures/helpdesk/trajectories.jsonl   gold trajectories under fixtures/helpdesk/harness.yaml
//   fixtures/helpdesk/raw-logs.jsonl       20 of them as a production logger writes them (for `hsa import trajectories`)
//   fixtures/helpdesk/contexts/example.json one request context, for `hsa render`
//   fixtures/helpdesk/demo/trajectories.jsonl the same trajectories and more of the same families (for `hsa demo`)
//
// Usage: npx tsx scripts/generate-helpdesk-fixture.ts [--check | --out FILE]
//   --check     generate in memory and compare with the files on disk instead of writing them;
//   --out FILE  write only the trajectories, to FILE (the fixture on disk is left alone).
//
// Each trajectory is played through the runtime's Episode by a scripted policy against the fixture's module
// tools (fixtures/helpdesk/tools.ts, a fresh directory per episode). The script states every hook decision it
// expects — a slip that a hook rejects, the feedback, the corrected attempt — and the generation fails when
// the runtime decides otherwise. Every trajectory is replayed through the trajectory validator before it is
// written. Domain code stays here and under fixtures/, never in src/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import {
  createState,
  createTools,
  type HelpdeskState,
  type HelpdeskUser,
} from '../fixtures/helpdesk/tools.js';
import { createRandom, type Random } from '../src/augment/random.js';
import { hashHarness } from '../src/harness/hash.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import type { Harness } from '../src/harness/schema.js';
import { Episode, type Observation } from '../src/runtime/episode.js';
import { toolsFromFunctions } from '../src/runtime/tool-runtime.js';
import type { Message, Trajectory } from '../src/trajectory/schema.js';
import { validateTrajectory } from '../src/trajectory/validate-trajectory.js';

const SEED = 'helpdesk-2026-12';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixtureDir = join(root, 'fixtures', 'helpdesk');
const HARNESS_FILE = join(fixtureDir, 'harness.yaml');
const ALIASES_FILE = join(fixtureDir, 'aliases.yaml');
const RAW_LOGS = 20;

type Json = Record<string, unknown>;
type Call = [name: string, args: Json];

class ScriptError extends Error {}

// ── the scripted player ─────────────────────────────────────────────────────────────────────────────

/** Drives one Episode and asserts that every step ends the way the script expects. */
class Player {
  readonly episode: Episode;
  readonly state: HelpdeskState;
  readonly slips: string[] = [];

  constructor(
    harness: Harness,
    readonly context: Json,
    readonly id: string,
  ) {
    this.state = createState();
    this.episode = new Episode({
      harness,
      context,
      tools: toolsFromFunctions(createTools(this.state)),
      toolTimeoutMs: 60_000,
      now: () => 0,
    });
  }

  private fail(message: string): never {
    throw new ScriptError(`${this.id}: ${message}`);
  }

  private expectEvents(observation: Observation, expected: Array<[string, string]>, what: string) {
    const got = observation.hookEvents.map((event) => `${event.hook}:${event.outcome}`);
    const want = expected.map(([hook, outcome]) => `${hook}:${outcome}`);
    if (got.join() !== want.join())
      this.fail(`${what}: expected hook events [${want.join(', ')}], got [${got.join(', ')}]`);
  }

  /** An employee message that starts a turn. */
  async say(text: string) {
    const observation = await this.episode.user(text);
    this.expectEvents(observation, [], `message ${JSON.stringify(text)}`);
  }

  /** An employee message that an input hook answers with its fallback. */
  async sayStopped(text: string, hook: string) {
    const observation = await this.episode.user(text);
    this.expectEvents(observation, [[hook, 'fallback']], `message ${JSON.stringify(text)}`);
    this.slips.push(`input:${hook}`);
  }

  /** One assistant message: skill loads first, then registry calls; returns the parsed registry results. */
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
    this.expectEvents(observation, [], `calls ${all.map(([name]) => name).join(', ')}`);
    return observation.tools.map((tool) => {
      const value = JSON.parse(tool.content) as Json;
      if (tool.error) this.fail(`${tool.name} failed: ${tool.content}`);
      return value;
    });
  }

  async load(...skills: string[]) {
    await this.step(skills);
  }

  async call(...calls: Call[]): Promise<Json[]> {
    return this.step([], calls);
  }

  /** A call that the tool-arguments hook rejects; the script then makes the corrected call itself. */
  async badCall(call: Call, hook = 'tool_arguments_valid') {
    const observation = await this.episode.assistant({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: '', type: 'function', function: { name: call[0], arguments: JSON.stringify(call[1]) } },
      ],
    });
    this.expectEvents(observation, [[hook, 'retry']], `bad call ${call[0]}`);
    this.slips.push(`pre_tool:${hook}`);
  }

  async reply(text: string) {
    const observation = await this.episode.assistant({ role: 'assistant', content: text });
    this.expectEvents(observation, [], `reply ${JSON.stringify(text.slice(0, 60))}`);
    if (observation.end !== 'reply') this.fail(`reply did not end the turn (${observation.end})`);
  }

  /** A reply that `hook` rejects with feedback; the script then sends the corrected reply. */
  async slip(text: string, hook: string) {
    const observation = await this.episode.assistant({ role: 'assistant', content: text });
    this.expectEvents(observation, [[hook, 'retry']], `slip ${JSON.stringify(text.slice(0, 60))}`);
    this.slips.push(`reply:${hook}`);
  }

  /** The one-time code the employee received last. */
  lastCode(userId: string): string {
    const entry = this.state.outbox.findLast((item) => item.user_id === userId && item.kind === 'sms_code');
    if (!entry?.code) this.fail(`no code was sent to ${userId}`);
    return entry.code;
  }
}

// ── the world the scripts draw from ─────────────────────────────────────────────────────────────────

const directory = createState().directory;
const user = (id: string) => directory.users.find((candidate) => candidate.user_id === id) as HelpdeskUser;
const first = (person: HelpdeskUser) => person.display_name.split(' ')[0]!;

const CHANNELS = ['Teams chat', 'Service Portal chat', 'intranet help widget'];
const TIMES = [
  '08:12',
  '08:47',
  '09:05',
  '09:31',
  '10:02',
  '10:44',
  '11:18',
  '13:26',
  '14:09',
  '15:37',
  '16:52',
];
const TIMEZONES = ['CET', 'GMT', 'EET'];

function makeContext(rng: Random, requester: HelpdeskUser | undefined, withIncidents: boolean): Json {
  const incidents = withIncidents
    ? directory.services
        .filter((service) => service.status !== 'operational')
        .map((service) => ({
          id: service.incident_id,
          service: service.service,
          status: service.status,
          summary: service.summary,
        }))
    : [];
  return {
    org: { name: directory.org.name, desk_extension: '4357', desk_hours: 'Mon–Fri 08:00–18:00' },
    session: {
      channel: requester ? rng.pick(CHANNELS) : 'Service Portal chat (signed out)',
      local_time: rng.pick(TIMES),
      timezone: rng.pick(TIMEZONES),
      signed_in: requester !== undefined,
      requester: requester ? { display_name: requester.display_name, user_id: requester.user_id } : null,
    },
    incidents,
  };
}

/** Fills `{name}` slots of a phrasing. */
const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => slots[key] ?? `{${key}}`);

function identifierOf(rng: Random, person: HelpdeskUser) {
  const kind = rng.pick(['email', 'employee_id', 'username'] as const);
  const value =
    kind === 'email' ? person.email : kind === 'employee_id' ? person.employee_id : person.username;
  const phrase =
    kind === 'email'
      ? rng.pick([`my email is ${value}`, `it's ${value}`, `${value}`, `email: ${value}`])
      : kind === 'employee_id'
        ? rng.pick([`employee ID ${value}`, `my employee number is ${value}`, `ID ${value}`])
        : rng.pick([`username ${value}`, `my login is ${value}`, `user ${value}`]);
  return { kind, value, phrase };
}

/** The first `count` steps of an article as one numbered line. */
function steps(list: readonly string[], count: number) {
  return list
    .slice(0, count)
    .map((text, index) => `${index + 1}. ${text}`)
    .join(' ');
}

interface Script {
  kind: string;
  /** Which slip this trajectory carries, if any. */
  slip?: string;
  requester?: string;
  incidents?: boolean;
  play(player: Player, rng: Random): Promise<void>;
}

// ── identity and account scripts ────────────────────────────────────────────────────────────────────

const RESET_OPENERS = [
  "Hi, I forgot my password and can't sign in. {id}",
  'my password expired over the weekend and now nothing works, {id}',
  "Can you reset my password? I'm locked out of Outlook. {id}",
  'hello, I need a password reset please ({id})',
  "I changed my password last week and can't remember the new one. {id}",
  'Password reset needed — {id}',
  "I can't log in, it says my password is wrong. {id}",
];
const CODE_REPLIES = [
  '{code}',
  'the code is {code}',
  "it's {code}",
  'Got it: {code}',
  '{code} thanks',
  'code {code}',
];

async function verifyByCode(
  player: Player,
  rng: Random,
  person: HelpdeskUser,
  opener: string,
  skills: string[],
) {
  const identifier = identifierOf(rng, person);
  await player.say(fill(opener, { id: identifier.phrase }));
  await player.load(...skills);
  const [lookup] = await player.call([
    'lookup_user',
    { identifier: { kind: identifier.kind, value: identifier.value } },
  ]);
  const found = (lookup as { user: Json }).user;
  const [sent] = await player.call(['verify_identity', { user_id: found.user_id, method: 'sms_code' }]);
  await player.reply(
    rng.pick([
      `Thanks, ${first(person)}. I've sent a six-digit code to your phone ending ${String(sent!.sent_to).slice(-4)}; it is valid for ${sent!.expires_in_minutes} minutes. Please type it here.`,
      `I found your account. To confirm it's you, I sent a code by SMS to ${sent!.sent_to}. Please reply with the six digits (valid ${sent!.expires_in_minutes} minutes).`,
      `Before I change anything I need to verify you: a code just went to ${sent!.sent_to}. What does it say?`,
    ]),
  );
  return found;
}

async function submitCode(player: Player, rng: Random, person: HelpdeskUser, wrongFirst: boolean) {
  const code = player.lastCode(person.user_id);
  if (wrongFirst) {
    const wrong = `${code.slice(0, 4)}${code[5]}${code[4]}`;
    const typo = wrong === code ? `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}` : wrong;
    await player.say(fill(rng.pick(CODE_REPLIES), { code: typo }));
    const [failed] = await player.call([
      'verify_identity',
      { user_id: person.user_id, method: 'sms_code', code: typo },
    ]);
    await player.reply(
      `That code doesn't match, sorry. You have ${failed!.attempts_left} attempts left; please check the SMS and type the six digits again.`,
    );
  }
  await player.say(fill(rng.pick(CODE_REPLIES), { code }));
  const [verified] = await player.call([
    'verify_identity',
    { user_id: person.user_id, method: 'sms_code', code },
  ]);
  if (verified!.status !== 'verified') throw new ScriptError(`verification failed for ${person.user_id}`);
  return String(verified!.verification_id);
}

function resetScript(userId: string, variant: string): Script {
  const slip = ['guarantee', 'secret', 'bad_args', 'too_long', 'skip_identity'].includes(variant)
    ? variant
    : undefined;
  return {
    kind: 'password_reset',
    ...(slip ? { slip } : {}),
    async play(player, rng) {
      const person = user(userId);
      await verifyByCode(
        player,
        rng,
        person,
        rng.pick(RESET_OPENERS),
        variant === 'skip_identity' ? ['password-reset'] : ['identity-verification', 'password-reset'],
      );
      const verificationId = await submitCode(player, rng, person, variant === 'wrong_code');
      const delivery = variant === 'alternate_email' ? 'alternate_email' : 'sms_link';
      const stay = variant === 'in_a_call';
      if (variant === 'alternate_email' || stay) {
        // The employee adds a wish before the reset runs: a second message in the same conversation.
        await player.reply(
          stay
            ? 'Verified, thank you. Shall I sign you out everywhere as part of the reset? You mentioned a call.'
            : 'Verified, thank you. Where should the reset link go?',
        );
        await player.say(
          stay
            ? rng.pick([
                "no please, I'm presenting in a call right now",
                "please don't sign me out, I'm in a Teams call",
              ])
            : rng.pick([
                'can you send it to my private email instead?',
                'my phone is dead, use my personal email please',
              ]),
        );
      }
      const args = {
        user_id: person.user_id,
        verification_id: verificationId,
        delivery,
        ...(stay ? { sign_out_everywhere: false } : {}),
      };
      if (variant === 'bad_args') await player.badCall(['reset_password', { ...args, delivery: 'sms' }]);
      if (variant === 'skip_identity') {
        // The scoped pre_tool hook: no reset before the identity procedure is loaded.
        await player.badCall(['reset_password', args], 'identity_before_account_change');
        await player.load('identity-verification');
      }
      const [reset] = await player.call(['reset_password', args]);
      const where = String(reset!.sent_to);
      const minutes = reset!.link_expires_in_minutes;
      const signedOut = Number(reset!.sessions_signed_out);
      const good = stay
        ? `Done: a reset link went to ${where} and stays valid for ${minutes} minutes. I kept your current sessions open, so your call is not interrupted. Choose the new password on the reset page.`
        : `Done: a reset link went to ${where} and stays valid for ${minutes} minutes. Open it, choose your new password on the reset page, then sign in again${signedOut > 0 ? ` (I signed out your ${signedOut} open sessions)` : ''}.`;
      if (variant === 'guarantee')
        await player.slip(`${good} This is guaranteed to fix your sign-in.`, 'no_guarantees');
      if (variant === 'secret')
        await player.slip(
          `Done! Your temporary password is Welcome-${minutes}; the link also went to ${where}.`,
          'no_password_in_reply',
        );
      if (variant === 'too_long')
        await player.slip(
          `${good} A few tips while you are at it: use a passphrase of several words rather than a single word with numbers, do not reuse a password from another site, update the password saved on your phone's mail app straight away so it does not lock you out again, and remember that the service desk will never ask you for your password in chat, by phone or by e-mail.`,
          'reply_length',
        );
      await player.reply(good);
    },
  };
}

function managerApprovalScript(): Script {
  return {
    kind: 'password_reset_manager',
    async play(player, rng) {
      const person = user('U20520');
      const identifier = identifierOf(rng, person);
      await player.say(fill(rng.pick(RESET_OPENERS), { id: identifier.phrase }));
      await player.load('identity-verification', 'password-reset');
      await player.call(['lookup_user', { identifier: { kind: identifier.kind, value: identifier.value } }]);
      const [noPhone] = await player.call([
        'verify_identity',
        { user_id: person.user_id, method: 'sms_code' },
      ]);
      if (noPhone!.status !== 'no_phone_on_file') throw new ScriptError('expected no phone on file');
      const [pending] = await player.call([
        'verify_identity',
        { user_id: person.user_id, method: 'manager_approval' },
      ]);
      await player.reply(
        rng.pick([
          `There is no phone on file for codes, so I've asked your manager, ${pending!.manager}, to confirm it's you (request ${pending!.request_id}). Once they approve, I'll send the reset link.`,
          `I can't text you a code (no phone on file), so verification goes through your manager: ${pending!.manager} has been asked to approve request ${pending!.request_id}. The reset follows as soon as they do.`,
        ]),
      );
    },
  };
}

const UNLOCK_OPENERS = [
  'My account is locked. {id}',
  "it says my account has been locked, I can't get in. {id}",
  'Locked out after too many tries :( {id}',
  "I'm travelling and my account got locked when I tried to sign in. {id}",
  'hey, can you unlock my account? {id}',
];

function unlockScript(userId: string, variant: string): Script {
  const slip = variant === 'ungrounded' || variant === 'skip_identity' ? variant : undefined;
  return {
    kind: variant === 'with_reset' ? 'unlock_and_reset' : 'account_unlock',
    ...(slip ? { slip } : {}),
    async play(player, rng) {
      const person = user(userId);
      const opener =
        variant === 'with_reset'
          ? rng.pick([
              "I'm locked out and I don't remember my password either. {id}",
              'locked account + forgotten password, sorry! {id}',
            ])
          : rng.pick(UNLOCK_OPENERS);
      const skills =
        variant === 'with_reset'
          ? ['identity-verification', 'account-unlock', 'password-reset']
          : variant === 'skip_identity'
            ? ['account-unlock']
            : ['identity-verification', 'account-unlock'];
      const found = await verifyByCode(player, rng, person, opener, skills);
      const verificationId = await submitCode(player, rng, person, false);
      const unlockArgs = {
        user_id: person.user_id,
        verification_id: verificationId,
        reason: found.lock_reason,
      };
      if (variant === 'skip_identity') {
        await player.badCall(['unlock_account', unlockArgs], 'identity_before_account_change');
        await player.load('identity-verification');
      }
      const [unlocked] = await player.call(['unlock_account', unlockArgs]);
      const cleared = Number(unlocked!.failed_attempts_cleared);
      const advice = String(unlocked!.advice);
      if (variant === 'with_reset') {
        const [reset] = await player.call([
          'reset_password',
          { user_id: person.user_id, verification_id: verificationId, delivery: 'sms_link' },
        ]);
        await player.reply(
          `Your account is unlocked and a reset link went to ${reset!.sent_to} (valid ${reset!.link_expires_in_minutes} minutes). Set the new password there, then sign in. ${advice}`,
        );
        return;
      }
      const good = `Your account is unlocked${cleared > 0 ? ` and the ${cleared} failed sign-ins are cleared` : ''}. You can sign in again now. ${advice}`;
      if (variant === 'ungrounded')
        await player.slip(
          `${good} It usually takes about 15 minutes to sync to every app.`,
          'numbers_grounded',
        );
      await player.reply(good);
    },
  };
}

function adminLockScript(): Script {
  return {
    kind: 'admin_lock',
    async play(player, rng) {
      const person = user('U20533');
      const identifier = identifierOf(rng, person);
      await player.say(fill(rng.pick(UNLOCK_OPENERS), { id: identifier.phrase }));
      await player.load('account-unlock');
      const [lookup] = await player.call([
        'lookup_user',
        { identifier: { kind: identifier.kind, value: identifier.value } },
      ]);
      if ((lookup!.user as Json).lock_reason !== 'admin_request')
        throw new ScriptError('expected an admin lock');
      await player.load('ticket-intake', 'escalation');
      const [ticket] = await player.call([
        'create_ticket',
        {
          requester_id: person.user_id,
          category: 'access',
          priority: 'P2',
          summary: 'Account locked by an administrator; employee cannot sign in',
          contact: { preferred: rng.pick(['phone', 'email']) },
        },
      ]);
      const [escalated] = await player.call([
        'escalate_ticket',
        {
          ticket_id: ticket!.ticket_id,
          tier: 'tier2',
          reason:
            'Admin lock on the account: only the Identity Team can lift it after checking who requested it.',
        },
      ]);
      await player.reply(
        `Your account was locked by an administrator, which I can't lift from chat. I opened ${ticket!.ticket_id} and passed it to ${escalated!.assigned_team}; target response ${ticket!.target_response}. They will contact you.`,
      );
    },
  };
}

function disabledScript(): Script {
  return {
    kind: 'disabled_account',
    async play(player, rng) {
      const person = user('U20574');
      const identifier = identifierOf(rng, person);
      await player.say(
        fill(
          rng.pick([
            "I'm back from leave and my account doesn't work at all. {id}",
            'Hi, my login is rejected since Monday. {id}',
          ]),
          { id: identifier.phrase },
        ),
      );
      await player.load('account-unlock');
      await player.call(['lookup_user', { identifier: { kind: identifier.kind, value: identifier.value } }]);
      await player.reply(
        `Welcome back, ${first(person)}. Your account is disabled, not locked, so I can't turn it back on from chat: your manager needs to request the reactivation through the Service Portal. After that you can sign in as usual.`,
      );
    },
  };
}

function secretSharedScript(userId: string): Script {
  return {
    kind: 'secret_shared',
    async play(player, rng) {
      const person = user(userId);
      await player.sayStopped(
        rng.pick([
          'my password is Summer2026! and it does not work anymore',
          "I can't log in, password: Blue#Tiger88",
          'tried everything, my password is P@ssw0rd123 but Outlook says no',
        ]),
        'input_secret_shared',
      );
      await verifyByCode(player, rng, person, 'sorry. I just need a reset then. {id}', [
        'identity-verification',
        'password-reset',
      ]);
      const verificationId = await submitCode(player, rng, person, false);
      const [reset] = await player.call([
        'reset_password',
        { user_id: person.user_id, verification_id: verificationId, delivery: 'sms_link' },
      ]);
      await player.reply(
        `Verified. A reset link went to ${reset!.sent_to} (valid ${reset!.link_expires_in_minutes} minutes). Choose a new password there; the one you typed earlier should not be used again.`,
      );
    },
  };
}

// ── devices, knowledge base and outages ─────────────────────────────────────────────────────────────

const HOWTO: Array<{ query: string; category?: string; asks: string[] }> = [
  {
    query: 'mfa new phone',
    category: 'accounts',
    asks: [
      'I got a new phone, how do I move the authenticator?',
      'how do I set up MFA on my new phone?',
      'new phone — what do I do about the sign-in approvals?',
    ],
  },
  {
    query: 'mailbox full',
    category: 'email',
    asks: [
      'Outlook says my mailbox is full, what now?',
      'my mailbox is out of space',
      'I keep getting "mailbox quota" warnings',
    ],
  },
  {
    query: 'connect office wifi',
    category: 'network',
    asks: [
      'How do I connect to the office Wi-Fi?',
      "which wifi should I use in the office? can't connect",
      "my laptop won't join the office wireless network",
    ],
  },
  {
    query: 'shared drive access',
    asks: [
      'how do I get access to the Finance shared drive?',
      'I need access to a shared folder of another team',
      'shared drive says permission denied',
    ],
  },
  {
    query: 'vpn setup new laptop',
    category: 'network',
    asks: [
      'how do I set up the VPN on my new laptop?',
      'need to install the VPN, how?',
      'where do I get the VPN client?',
    ],
  },
  {
    query: 'camera microphone video call',
    asks: [
      'my camera does not work in Teams calls',
      "people can't hear me in video calls, mic not working",
      'webcam is black in Zoom',
    ],
  },
  {
    query: 'outlook password prompt again',
    category: 'email',
    asks: [
      'Outlook keeps asking for my password again and again',
      'outlook password prompt every 5 minutes!!',
      'why does Outlook keep asking me to sign in?',
    ],
  },
];

function articleReply(article: { id: string; title: string; steps: string[] }, count: number, close: string) {
  return `${article.id} "${article.title}" covers this: ${steps(article.steps, count)} ${close}`;
}

function howtoScript(topic: number, requester: string | undefined, variant: string): Script {
  const slip = ['too_long', 'guarantee', 'skill_first'].includes(variant) ? variant : undefined;
  return {
    kind: 'how_to',
    ...(slip ? { slip } : {}),
    ...(requester ? { requester } : {}),
    async play(player, rng) {
      const entry = HOWTO[topic]!;
      await player.say(rng.pick(entry.asks));
      if (variant === 'skill_first')
        await player.slip('Let me look that up for you in the knowledge base.', 'reply_skill_loaded');
      await player.load('knowledge-base-answer');
      const [found] = await player.call([
        'search_knowledge_base',
        {
          query: entry.query,
          ...(entry.category ? { filters: { category: entry.category } } : {}),
          limit: 2,
        },
      ]);
      const article = (found!.results as Array<{ id: string; title: string; steps: string[] }>)[0];
      if (!article) throw new ScriptError(`no article for ${entry.query}`);
      const close = rng.pick([
        'Does that work for you?',
        'Tell me if you get stuck.',
        'Let me know how it goes.',
      ]);
      let count = 4;
      while (articleReply(article, count, close).length > 460 && count > 2) count--;
      const good = articleReply(article, count, close);
      if (variant === 'too_long')
        await player.slip(
          `${articleReply(article, 4, close)} If none of that helps, I can also open a ticket for you, and a colleague from the service desk will follow up in this chat with more detailed instructions and screenshots for your device.`,
          'reply_length',
        );
      if (variant === 'guarantee') await player.slip(`${good} Guaranteed to work.`, 'no_guarantees');
      await player.reply(good);
      if (variant === 'thanks') {
        await player.say(rng.pick(['perfect, thanks!', 'that worked, thank you', 'great, cheers']));
        await player.load('small-talk');
        await player.reply(
          rng.pick([
            "You're welcome! Anything else I can help with?",
            'Glad it worked. Anything else today?',
          ]),
        );
      }
    },
  };
}

function outageScript(
  service: 'vpn' | 'printing' | 'email',
  requester: string,
  withIncidents: boolean,
): Script {
  const asks: Record<typeof service, string[]> = {
    vpn: [
      'VPN keeps dropping every few minutes',
      'is the VPN down? I keep getting disconnected',
      'vpn disconnects constantly since this morning',
    ],
    printing: [
      "can't print in building B",
      'Follow-Me printing does nothing when I badge',
      'the printers are not working?',
    ],
    email: [
      'is email down? nothing is arriving',
      'Outlook not receiving mails since an hour',
      'email seems broken',
    ],
  };
  return {
    kind: 'outage_check',
    requester,
    incidents: withIncidents,
    async play(player, rng) {
      await player.say(rng.pick(asks[service]));
      await player.load('outage-check');
      const [status] = await player.call(['check_service_status', { services: [service] }]);
      const entry = (status!.services as Json[])[0]!;
      if (entry.status === 'operational') {
        await player.load('knowledge-base-answer');
        const [found] = await player.call([
          'search_knowledge_base',
          { query: 'outlook email not receiving', limit: 1 },
        ]);
        const article = (found!.results as Array<{ id: string; title: string; steps: string[] }>)[0]!;
        await player.reply(
          `Email is operational, so it's likely your Outlook. From ${article.id}: ${steps(article.steps, 2)} Tell me if mail still doesn't arrive.`,
        );
        return;
      }
      await player.reply(
        rng.pick([
          `Yes, there's a known incident: ${entry.incident_id}, ${entry.summary}. The team is on it; next update at ${entry.next_update}. No need for a ticket, you'll see updates there.`,
          `It's not just you: ${entry.incident_id} is open (${entry.status}): ${entry.summary}. Next update ${entry.next_update}; I'd wait for it rather than troubleshoot.`,
        ]),
      );
    },
  };
}

function complianceScript(requester: string, variant: string): Script {
  const slip = variant === 'bad_args' ? 'bad_args' : undefined;
  return {
    kind: 'device_compliance',
    requester,
    ...(slip ? { slip } : {}),
    async play(player, rng) {
      await player.say(
        rng.pick([
          'my laptop says it is non-compliant and I lost access to email',
          'Company Portal shows "update required" on my laptop',
          "Why can't I open SharePoint? something about device compliance",
        ]),
      );
      await player.load('device-troubleshooting');
      const [list] = await player.call(['list_devices', { user_id: requester, filter: { type: 'laptop' } }]);
      const device = (list!.devices as Array<{ asset_tag: string; os: string }>)[0]!;
      const statusArgs = { asset_tag: device.asset_tag, checks: ['compliance', 'os_version'] };
      if (variant === 'bad_args')
        await player.badCall([
          'get_device_status',
          { ...statusArgs, asset_tag: device.asset_tag.toLowerCase() },
        ]);
      // Independent calls in one step: the device record and the article.
      const [status, found] = await player.call(
        ['get_device_status', statusArgs],
        [
          'search_knowledge_base',
          {
            query: 'non-compliant update required',
            filters: { category: 'security', os: [device.os] },
            limit: 1,
          },
        ],
      );
      const article = (found!.results as Array<{ id: string; steps: string[] }>)[0]!;
      const issues = (status!.compliance_issues as string[]).join('; ');
      await player.reply(
        `${device.asset_tag} (${status!.os_version}) is non-compliant: ${issues}. From ${article.id}: ${steps(article.steps.slice(1), 2)} Access comes back once it shows compliant.`,
      );
    },
  };
}

function dockScript(requester: string, variant: string): Script {
  const slip = variant === 'bad_args' ? 'bad_args' : undefined;
  return {
    kind: 'monitor_ticket',
    requester,
    ...(slip ? { slip } : {}),
    async play(player, rng) {
      await player.say(
        rng.pick([
          'my external monitor is not detected anymore',
          'second screen stays black when I plug in my laptop',
          'the monitor on my desk shows "no signal"',
        ]),
      );
      await player.load('device-troubleshooting');
      const [list, found] = await player.call(
        ['list_devices', { user_id: requester }],
        [
          'search_knowledge_base',
          { query: 'external monitor not detected dock', filters: { category: 'hardware' }, limit: 1 },
        ],
      );
      const article = (found!.results as Array<{ id: string; steps: string[] }>)[0]!;
      const monitor = (list!.devices as Array<{ asset_tag: string; type: string }>).find(
        (device) => device.type === 'monitor' || device.type === 'dock',
      )!;
      await player.reply(`Let's try ${article.id} first: ${steps(article.steps, 3)} Tell me what happens.`);
      await player.say(
        rng.pick(['tried all of it, still nothing', "didn't help, still black", 'no luck, same problem']),
      );
      await player.load('ticket-intake');
      const args = {
        requester_id: requester,
        category: 'hardware',
        priority: 'P3',
        summary: `External monitor not detected via ${monitor.asset_tag}`,
        affected_devices: [
          { asset_tag: monitor.asset_tag, symptom: 'monitor not detected after the KB steps' },
        ],
        steps_taken: [`${article.id} steps 1-3`],
        contact: { preferred: 'chat', window: rng.pick(['after 14:00', 'mornings', 'any time today']) },
      };
      if (variant === 'bad_args') await player.badCall(['create_ticket', { ...args, priority: 'medium' }]);
      const [ticket] = await player.call(['create_ticket', args]);
      await player.reply(
        `I've opened ${ticket!.ticket_id} for ${monitor.asset_tag} with the steps you tried. Target response: ${ticket!.target_response}. Endpoint support will contact you in chat.`,
      );
    },
  };
}

function slowLaptopScript(requester: string): Script {
  return {
    kind: 'slow_laptop',
    requester,
    async play(player, rng) {
      await player.say(
        rng.pick([
          'my laptop is super slow today',
          'laptop freezes all the time, fan is loud',
          'everything lags on my laptop',
        ]),
      );
      await player.load('device-troubleshooting');
      const [list, found] = await player.call(
        ['list_devices', { user_id: requester, filter: { type: 'laptop' } }],
        ['search_knowledge_base', { query: 'laptop slow', limit: 1 }],
      );
      const device = (list!.devices as Array<{ asset_tag: string }>)[0]!;
      const article = (found!.results as Array<{ id: string; steps: string[] }>)[0]!;
      await player.reply(
        `For ${device.asset_tag}, ${article.id} suggests: ${steps(article.steps, 3)} Tell me if it is still slow after that.`,
      );
    },
  };
}

// ── tickets and escalations ─────────────────────────────────────────────────────────────────────────

function ticketStatusScript(requester: string, ticketId: string, variant: string): Script {
  return {
    kind: 'ticket_status',
    requester,
    async play(player, rng) {
      await player.say(
        fill(
          rng.pick([
            'any news on {t}?',
            "what's the status of {t}",
            'Hi, can you check ticket {t} for me?',
            '{t} — still open?',
          ]),
          {
            t: ticketId,
          },
        ),
      );
      await player.load('ticket-status');
      const [ticket] = await player.call(['get_ticket', { ticket_id: ticketId, requester_id: requester }]);
      if (ticket!.shared === false) {
        await player.reply(
          `${ticketId} belongs to another employee, so I can't share it. If it's about you, ask them to add you, or open your own ticket.`,
        );
        return;
      }
      const note = ticket!.latest_public_note ? ` Latest note: "${ticket!.latest_public_note}"` : '';
      await player.reply(
        `${ticketId} is ${String(ticket!.status).replaceAll('_', ' ')}, with ${ticket!.assigned_team}.${note}`,
      );
      if (variant === 'update' && ticket!.status === 'waiting_on_user') {
        const info = rng.pick([
          'it happened again at 09:40 today',
          'I tried that, no change',
          'it dropped twice this morning, around 10:15',
        ]);
        await player.say(info);
        const [updated] = await player.call([
          'update_ticket',
          { ticket_id: ticketId, note: `Employee: ${info}`, status: 'open' },
        ]);
        await player.reply(
          `Thanks, I added that to ${ticketId} and set it back to ${updated!.status}. ${ticket!.assigned_team} will pick it up.`,
        );
      }
    },
  };
}

function phishingScript(requester: string): Script {
  return {
    kind: 'phishing',
    requester,
    async play(player, rng) {
      await player.say(
        rng.pick([
          'I think I clicked a phishing link in an email just now',
          'oops, I opened a link in a weird "invoice" mail and it asked for my login',
          'Clicked a suspicious link, what do I do??',
        ]),
      );
      await player.load('knowledge-base-answer', 'ticket-intake', 'escalation');
      const [found, ticket] = await player.call(
        [
          'search_knowledge_base',
          { query: 'clicked phishing link', filters: { category: 'security' }, limit: 1 },
        ],
        [
          'create_ticket',
          {
            requester_id: requester,
            category: 'security',
            priority: 'P1',
            summary: 'Employee clicked a link in a suspected phishing e-mail',
          },
        ],
      );
      const article = (found!.results as Array<{ id: string; steps: string[] }>)[0]!;
      const manager = user(requester).manager_user_id!;
      const [escalated] = await player.call([
        'escalate_ticket',
        {
          ticket_id: ticket!.ticket_id,
          tier: 'security',
          reason: 'Suspected phishing: the employee opened the link and may have been shown a login page.',
          notify: [{ user_id: manager, role: 'manager' }],
        },
      ]);
      await player.reply(
        `Thanks for telling us quickly. ${steps(article.steps, 3)} I opened ${ticket!.ticket_id} and ${escalated!.assigned_team} has it now.`,
      );
    },
  };
}

function lostDeviceScript(): Script {
  return {
    kind: 'lost_device',
    requester: 'U20520',
    async play(player, rng) {
      await player.say(
        rng.pick([
          'I lost my work iPad on the train',
          "can't find my tablet anywhere, I think it was stolen",
        ]),
      );
      await player.load('ticket-intake', 'escalation');
      const [list] = await player.call(['list_devices', { user_id: 'U20520', filter: { type: 'tablet' } }]);
      const device = (list!.devices as Array<{ asset_tag: string }>)[0]!;
      const [ticket] = await player.call([
        'create_ticket',
        {
          requester_id: 'U20520',
          category: 'security',
          priority: 'P2',
          summary: `Lost tablet ${device.asset_tag}`,
          affected_devices: [{ asset_tag: device.asset_tag, symptom: 'lost or stolen' }],
        },
      ]);
      const [escalated] = await player.call([
        'escalate_ticket',
        {
          ticket_id: ticket!.ticket_id,
          tier: 'security',
          reason: `Lost device ${device.asset_tag}: remote lock and wipe needed.`,
          notify: [{ user_id: 'U20005', role: 'manager' }],
        },
      ]);
      await player.reply(
        `I've opened ${ticket!.ticket_id} for ${device.asset_tag} and ${escalated!.assigned_team} will lock it remotely. Please change your password from another device, and report a theft to the police.`,
      );
    },
  };
}

// ── small talk and multi-issue ──────────────────────────────────────────────────────────────────────

function smallTalkScript(variant: string): Script {
  return {
    kind: 'small_talk',
    ...(variant === 'skill_first' ? { slip: 'skill_first' } : {}),
    async play(player, rng) {
      const greeting = rng.pick([
        'hi',
        'hello there',
        'good morning!',
        'hey',
        'are you a bot?',
        'is this a real person?',
      ]);
      await player.say(greeting);
      const bot = greeting.includes('bot') || greeting.includes('person');
      const answer = bot
        ? "I'm the automated assistant of the service desk. If you'd rather talk to a person, call extension 4357. What can I help with?"
        : rng.pick([
            'Hi! What can I help you with today?',
            'Hello! Tell me what is not working and I will take a look.',
          ]);
      if (variant === 'skill_first') await player.slip(answer, 'reply_skill_loaded');
      await player.load('small-talk');
      await player.reply(answer);
    },
  };
}

function multiIssueScript(requester: string, variant: string): Script {
  return {
    kind: 'multi_issue',
    requester,
    incidents: true,
    ...(variant === 'guarantee' ? { slip: 'guarantee' } : {}),
    async play(player, rng) {
      await player.say(
        rng.pick([
          'two things: the VPN keeps dropping and Outlook keeps asking for my password',
          'VPN disconnects all the time, and also Outlook wants my password every few minutes',
          'Outlook password prompts again and again + vpn unstable. help',
        ]),
      );
      await player.load('multi-issue-planner', 'outage-check', 'knowledge-base-answer');
      const [status, found] = await player.call(
        ['check_service_status', { services: ['vpn', 'email'] }],
        [
          'search_knowledge_base',
          { query: 'outlook password prompt again', filters: { category: 'email' }, limit: 1 },
        ],
      );
      const vpn = (status!.services as Json[])[0]!;
      const article = (found!.results as Array<{ id: string; steps: string[] }>)[0]!;
      const good = `VPN: known incident ${vpn.incident_id}, next update ${vpn.next_update}. Outlook, from ${article.id}: ${steps(article.steps, 3)}`;
      if (variant === 'guarantee')
        await player.slip(`${good} That will be permanently fixed.`, 'no_guarantees');
      await player.reply(good);
    },
  };
}

// ── the plan ────────────────────────────────────────────────────────────────────────────────────────

function plan(): Script[] {
  const scripts: Script[] = [];
  const resetUsers = ['U20417', 'U20501', 'U20561', 'U20602', 'U20002', 'U20005', 'U20011'];
  const resetVariants = [
    'plain',
    'alternate_email',
    'in_a_call',
    'wrong_code',
    'guarantee',
    'secret',
    'bad_args',
    'too_long',
    'plain',
    'skip_identity',
    'wrong_code',
    'plain',
    'in_a_call',
    'guarantee',
  ];
  for (const [index, variant] of resetVariants.entries())
    scripts.push(resetScript(resetUsers[index % resetUsers.length]!, variant));
  for (let index = 0; index < 3; index++) scripts.push(managerApprovalScript());
  const unlock: Array<[string, string]> = [
    ['U20388', 'plain'],
    ['U20455', 'plain'],
    ['U20589', 'plain'],
    ['U20388', 'ungrounded'],
    ['U20455', 'skip_identity'],
    ['U20589', 'ungrounded'],
    ['U20388', 'with_reset'],
    ['U20589', 'with_reset'],
    ['U20455', 'with_reset'],
  ];
  for (const [id, variant] of unlock) scripts.push(unlockScript(id, variant));
  for (let index = 0; index < 3; index++) scripts.push(adminLockScript());
  for (let index = 0; index < 2; index++) scripts.push(disabledScript());
  for (const id of ['U20417', 'U20561', 'U20011']) scripts.push(secretSharedScript(id));
  const howto: Array<[number, string | undefined, string]> = [
    [0, 'U20417', 'plain'],
    [1, 'U20561', 'too_long'],
    [2, undefined, 'plain'],
    [3, 'U20602', 'thanks'],
    [4, 'U20455', 'plain'],
    [5, 'U20501', 'guarantee'],
    [6, 'U20011', 'plain'],
    [0, undefined, 'skill_first'],
    [2, 'U20520', 'thanks'],
    [1, 'U20002', 'plain'],
    [5, undefined, 'plain'],
    [6, 'U20005', 'too_long'],
  ];
  for (const [topic, requester, variant] of howto) scripts.push(howtoScript(topic, requester, variant));
  const outages: Array<['vpn' | 'printing' | 'email', string, boolean]> = [
    ['vpn', 'U20417', true],
    ['printing', 'U20589', false],
    ['email', 'U20561', true],
    ['vpn', 'U20455', false],
    ['printing', 'U20002', true],
    ['email', 'U20602', false],
  ];
  for (const [service, requester, incidents] of outages)
    scripts.push(outageScript(service, requester, incidents));
  for (const [requester, variant] of [
    ['U20417', 'plain'],
    ['U20501', 'bad_args'],
    ['U20417', 'bad_args'],
    ['U20501', 'plain'],
    ['U20417', 'plain'],
  ] as const)
    scripts.push(complianceScript(requester, variant));
  for (const [requester, variant] of [
    ['U20417', 'plain'],
    ['U20455', 'bad_args'],
    ['U20602', 'plain'],
    ['U20417', 'plain'],
  ] as const)
    scripts.push(dockScript(requester, variant));
  for (const requester of ['U20561', 'U20602', 'U20388']) scripts.push(slowLaptopScript(requester));
  const tickets: Array<[string, string, string]> = [
    ['U20417', 'INC-40213', 'update'],
    ['U20501', 'INC-40277', 'plain'],
    ['U20589', 'INC-40302', 'plain'],
    ['U20455', 'INC-40318', 'plain'],
    ['U20561', 'INC-40341', 'update'],
    ['U20602', 'INC-40213', 'plain'],
  ];
  for (const [requester, ticket, variant] of tickets)
    scripts.push(ticketStatusScript(requester, ticket, variant));
  for (const requester of ['U20417', 'U20561', 'U20602']) scripts.push(phishingScript(requester));
  for (let index = 0; index < 2; index++) scripts.push(lostDeviceScript());
  for (const variant of ['plain', 'skill_first', 'plain', 'plain', 'skill_first'])
    scripts.push(smallTalkScript(variant));
  for (const [requester, variant] of [
    ['U20417', 'plain'],
    ['U20501', 'guarantee'],
    ['U20455', 'plain'],
    ['U20005', 'plain'],
  ] as const)
    scripts.push(multiIssueScript(requester, variant));
  return scripts;
}

// ── the demo's larger set ───────────────────────────────────────────────────────────────────────────

/** Trajectories in `demo/trajectories.jsonl`: the plan's, then conversations drawn from the same families. */
const DEMO_TOTAL = 400;
/** Draws per conversation before giving up (a drawn combination whose hooks decide otherwise is redrawn). */
const DEMO_ATTEMPTS = 8;

const RESET_USERS = ['U20417', 'U20501', 'U20561', 'U20602', 'U20002', 'U20005', 'U20011'];
const LOCKED_USERS = ['U20388', 'U20455', 'U20589'];
const ACTIVE_USERS = ['U20417', 'U20501', 'U20561', 'U20602', 'U20455', 'U20002', 'U20005', 'U20011'];
const TICKETS: Array<[string, string, string]> = [
  ['U20417', 'INC-40213', 'update'],
  ['U20501', 'INC-40277', 'plain'],
  ['U20589', 'INC-40302', 'plain'],
  ['U20455', 'INC-40318', 'plain'],
  ['U20561', 'INC-40341', 'update'],
  ['U20602', 'INC-40213', 'plain'],
];

/**
 * One conversation of the demo set: a script family drawn with the weights of the plan above (its counts),
 * and that family's parameters (accounts, variants, topics) drawn from the values the plan uses.
 */
function drawScript(rng: Random): Script {
  const families: Array<readonly [number, () => Script]> = [
    [
      14,
      () =>
        resetScript(
          rng.pick(RESET_USERS),
          rng.pick([
            'plain',
            'plain',
            'plain',
            'alternate_email',
            'in_a_call',
            'wrong_code',
            'guarantee',
            'secret',
            'bad_args',
            'too_long',
            'skip_identity',
          ]),
        ),
    ],
    [3, () => managerApprovalScript()],
    [
      9,
      () =>
        unlockScript(
          rng.pick(LOCKED_USERS),
          rng.pick(['plain', 'plain', 'ungrounded', 'skip_identity', 'with_reset']),
        ),
    ],
    [3, () => adminLockScript()],
    [2, () => disabledScript()],
    [3, () => secretSharedScript(rng.pick(['U20417', 'U20561', 'U20011']))],
    [
      12,
      () =>
        howtoScript(
          rng.int(0, HOWTO.length - 1),
          rng.pick([...ACTIVE_USERS, 'U20520', undefined]),
          rng.pick(['plain', 'plain', 'plain', 'thanks', 'too_long', 'guarantee', 'skill_first']),
        ),
    ],
    [
      6,
      () =>
        outageScript(
          rng.pick(['vpn', 'printing', 'email'] as const),
          rng.pick(ACTIVE_USERS),
          rng.chance(0.5),
        ),
    ],
    [5, () => complianceScript(rng.pick(['U20417', 'U20501']), rng.pick(['plain', 'plain', 'bad_args']))],
    [4, () => dockScript(rng.pick(['U20417', 'U20455', 'U20602']), rng.pick(['plain', 'plain', 'bad_args']))],
    [3, () => slowLaptopScript(rng.pick(['U20561', 'U20602', 'U20388']))],
    [
      6,
      () => {
        const [requester, ticket, variant] = rng.pick(TICKETS);
        return ticketStatusScript(requester, ticket, variant);
      },
    ],
    [3, () => phishingScript(rng.pick(['U20417', 'U20561', 'U20602']))],
    [2, () => lostDeviceScript()],
    [5, () => smallTalkScript(rng.pick(['plain', 'plain', 'skill_first']))],
    [
      4,
      () =>
        multiIssueScript(
          rng.pick(['U20417', 'U20501', 'U20455', 'U20005']),
          rng.pick(['plain', 'plain', 'guarantee']),
        ),
    ],
  ];
  return rng.weighted(families)();
}

// ── raw logs: the shape a production logger writes ──────────────────────────────────────────────────

interface Aliases {
  tools: Record<string, string>;
  skills: Record<string, string>;
}

/** Legacy names by current name (the inverse of aliases.yaml). */
function legacyNames(aliases: Aliases) {
  const invert = (map: Record<string, string>) =>
    Object.fromEntries(Object.entries(map).map(([legacy, current]) => [current, legacy]));
  return { tools: invert(aliases.tools), skills: invert(aliases.skills) };
}

/**
 * A gold trajectory as production logged it: the rendered system prompt, `{"loaded": id}` for skill loads,
 * no hook markers, some tool and skill names in their legacy form, and a logger's own fields.
 */
function rawLog(
  trajectory: Trajectory,
  harness: Harness,
  index: number,
  legacy: ReturnType<typeof legacyNames>,
  rng: Random,
) {
  const loader = harness.skills.loader;
  const useLegacy = rng.chance(0.6);
  const base = Date.UTC(2026, 10, 3 + (index % 25), 8 + (index % 9), (index * 7) % 60, 0);
  let clock = base;
  const tick = () => {
    clock += 400 + rng.int(0, 2600);
    return new Date(clock).toISOString();
  };
  const skillCalls = new Map<string, string>();
  const messages = trajectory.messages.map((message): Json => {
    const { hsa: _marker, ...plain } = message as Message & { hsa?: unknown };
    const logged: Json = { ...plain, ts: tick() };
    if (message.role === 'assistant' && message.tool_calls) {
      logged.tool_calls = message.tool_calls.map((call) => {
        let { name, arguments: args } = call.function;
        if (name === loader.tool) {
          const skill = String(JSON.parse(args)[loader.argument]);
          const shown = useLegacy ? (legacy.skills[skill] ?? skill) : skill;
          skillCalls.set(call.id, shown);
          if (shown !== skill) args = JSON.stringify({ [loader.argument]: shown });
        } else if (useLegacy) name = legacy.tools[name] ?? name;
        return { ...call, function: { name, arguments: args } };
      });
      logged.latency_ms = 300 + rng.int(0, 1900);
    }
    if (message.role === 'tool' && skillCalls.has(message.tool_call_id) && !message.hsa)
      logged.content = JSON.stringify({ loaded: skillCalls.get(message.tool_call_id) });
    return logged;
  });
  return {
    request_id: `req_${createRandom(`${SEED}:raw:${trajectory.id}`).int(100_000_000, 999_999_999).toString(36)}`,
    conversation_id: trajectory.id.replace('hd-', 'conv-'),
    timestamp: new Date(base).toISOString(),
    model: rng.pick(['helpdesk-assistant-2026-10', 'helpdesk-assistant-2026-11']),
    environment: 'production',
    context: trajectory.context,
    messages,
  };
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────────

interface Built {
  trajectory: Trajectory;
  line: string;
  kind: string;
  slips: string[];
  turns: number;
  issues: string[];
}

async function build(script: Script, index: number, harness: Harness, hash: string): Promise<Built> {
  const id = `hd-${String(index + 1).padStart(4, '0')}`;
  const rng = createRandom(`${SEED}:${id}`);
  const requester = script.requester ? user(script.requester) : undefined;
  const context = makeContext(
    rng.fork('context'),
    requester,
    script.incidents ?? rng.fork('incidents').chance(0.5),
  );
  const player = new Player(harness, context, id);
  try {
    await script.play(player, rng.fork('play'));
  } finally {
    player.episode.close();
  }
  if (
    (script.slip !== undefined) !== player.slips.length > 0 &&
    !player.slips.some((slip) => slip.startsWith('input:'))
  )
    throw new ScriptError(`${id}: slip ${script.slip} declared, ${player.slips.join(', ') || 'none'} played`);
  const trajectory = player.episode.trajectory(id, {
    scenario: script.kind,
    ...(player.slips.length > 0 ? { slips: player.slips } : {}),
    source: 'scripts/generate-helpdesk-fixture.ts',
  });
  trajectory.harness = { id: harness.id, hash };
  const validation = validateTrajectory(trajectory, harness);
  return {
    trajectory,
    line: JSON.stringify(trajectory),
    kind: script.kind,
    slips: player.slips,
    turns: player.episode.turns,
    issues: validation.issues.map(
      (issue) => `${id} ${JSON.stringify(issue.path)} ${issue.code}: ${issue.message}`,
    ),
  };
}

async function main() {
  const check = process.argv.includes('--check');
  const outIndex = process.argv.indexOf('--out');
  const out = outIndex === -1 ? undefined : process.argv[outIndex + 1];
  if (outIndex !== -1 && !out) throw new Error('--out needs a file');
  const harness = await loadHarnessFile(HARNESS_FILE);
  const hash = hashHarness(harness).harness;
  const aliases = YAML.parse(await readFile(ALIASES_FILE, 'utf8')) as Aliases;
  const built: Built[] = [];
  const scripts = plan();
  for (const [index, script] of scripts.entries()) built.push(await build(script, index, harness, hash));

  // The demo's set: the plan's conversations, then more drawn from the same families, each seeded by its id.
  const demo: Built[] = [...built];
  for (let index = built.length; index < DEMO_TOTAL; index++) {
    const draws = createRandom(`${SEED}:demo-plan:${index + 1}`);
    for (let attempt = 0; ; attempt++) {
      try {
        demo.push(await build(drawScript(draws.fork(attempt)), index, harness, hash));
        break;
      } catch (error) {
        if (!(error instanceof ScriptError) || attempt + 1 >= DEMO_ATTEMPTS) throw error;
      }
    }
  }

  // Raw logs: 20 trajectories, most of them with hook events or several turns, which the import must reconcile.
  const rawRng = createRandom(`${SEED}:raw-logs`);
  const withSlips = built.filter((item) => item.slips.length > 0);
  const multiTurn = built.filter((item) => item.slips.length === 0 && item.turns > 1);
  const others = built.filter((item) => item.slips.length === 0 && item.turns === 1);
  const chosen = [
    ...rawRng.fork('slips').sample(withSlips, 12),
    ...rawRng.fork('multi-turn').sample(multiTurn, 4),
    ...rawRng.fork('others').sample(others, RAW_LOGS - 16),
  ].sort((a, b) => a.trajectory.id.localeCompare(b.trajectory.id));
  const legacy = legacyNames(aliases);
  const raw = chosen.map((item, index) =>
    JSON.stringify(rawLog(item.trajectory, harness, index, legacy, rawRng.fork(item.trajectory.id))),
  );

  const example = built.find((item) => item.kind === 'password_reset')!.trajectory.context;
  const outputs: Array<[string, string]> = [
    [join(fixtureDir, 'trajectories.jsonl'), `${built.map((item) => item.line).join('\n')}\n`],
    [join(fixtureDir, 'raw-logs.jsonl'), `${raw.join('\n')}\n`],
    [join(fixtureDir, 'contexts', 'example.json'), `${JSON.stringify(example, null, 2)}\n`],
    [join(fixtureDir, 'demo', 'trajectories.jsonl'), `${demo.map((item) => item.line).join('\n')}\n`],
  ];

  const total = built.length;
  const byKind = new Map<string, number>();
  for (const item of built) byKind.set(item.kind, (byKind.get(item.kind) ?? 0) + 1);
  const slipCounts = new Map<string, number>();
  for (const item of built)
    for (const slip of item.slips) slipCounts.set(slip, (slipCounts.get(slip) ?? 0) + 1);
  const multiTool = built.filter((item) =>
    item.trajectory.messages.some(
      (message) =>
        message.role === 'assistant' &&
        (message.tool_calls ?? []).filter((call) => call.function.name !== harness.skills.loader.tool)
          .length > 1,
    ),
  ).length;
  console.log(
    [
      `trajectories: ${total}`,
      `  by scenario: ${[...byKind].map(([kind, count]) => `${kind} ${count}`).join(', ')}`,
      `  with a hook event: ${built.filter((item) => item.slips.length > 0).length}; ${[...slipCounts]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([slip, count]) => `${slip} ${count}`)
        .join(', ')}`,
      `  multi-turn: ${built.filter((item) => item.turns > 1).length}; with several registry calls in one message: ${multiTool}`,
      `raw logs: ${raw.length}`,
      `demo set: ${demo.length} trajectories; multi-turn ${demo.filter((item) => item.turns > 1).length}; with a hook event ${demo.filter((item) => item.slips.length > 0).length}`,
    ].join('\n'),
  );
  const issues = demo.flatMap((item) => item.issues);
  if (issues.length > 0) {
    console.error(`\n${issues.length} validator issue(s):`);
    for (const issue of issues.slice(0, 40)) console.error(`  ${issue}`);
  }
  if (check) {
    let stale = 0;
    for (const [file, content] of outputs) {
      const current = await readFile(file, 'utf8').catch(() => '');
      if (current !== content) {
        console.error(`stale: ${file}`);
        stale++;
      }
    }
    process.exitCode = stale > 0 || issues.length > 0 ? 1 : 0;
    return;
  }
  const targets: Array<[string, string]> = out ? [[out, outputs[0]![1]]] : outputs;
  for (const [file, content] of targets) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  console.log(
    `wrote ${targets.map(([file]) => (file.startsWith(root) ? file.slice(root.length + 1) : file)).join(', ')}`,
  );
  if (issues.length > 0) process.exitCode = 1;
}

await main();
