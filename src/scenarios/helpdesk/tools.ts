// The helpdesk scenario's tools: one function per tool of fixtures/helpdesk/harness.yaml, over an in-memory
// copy of fixtures/helpdesk/directory.json. `createTools()` gives a fresh directory per episode (codes,
// verifications and new tickets are per-episode state). Everything is deterministic: one-time codes and ids
// come from a hash of the account and a counter. fixtures/helpdesk/tools.ts re-exports this module with one
// shared instance, for backends files that name it.
import { readFileSync } from 'node:fs';
import { HarnessAugmentError } from '../../harness/issues.js';

type Json = Record<string, unknown>;

export interface HelpdeskUser {
  user_id: string;
  employee_id: string;
  username: string;
  email: string;
  display_name: string;
  department: string;
  status: 'active' | 'locked' | 'disabled';
  lock_reason: 'too_many_attempts' | 'travel_lockout' | 'admin_request' | null;
  failed_attempts: number;
  phone_masked: string | null;
  alternate_email_masked: string | null;
  manager_user_id: string | null;
  last_password_change: string;
  open_sessions: number;
}

export interface HelpdeskDevice {
  asset_tag: string;
  user_id: string;
  type: string;
  model: string;
  os: string | null;
  os_version: string | null;
  status: string;
  compliance: string;
  compliance_issues: string[];
  encryption: string;
  last_check_in: string | null;
  warranty_until: string;
}

export interface HelpdeskTicket {
  ticket_id: string;
  requester_id: string;
  category: string;
  priority: string;
  status: string;
  assigned_team: string;
  summary: string;
  public_notes: string[];
  internal_notes: string[];
  target_response: string;
  affected_devices?: Array<{ asset_tag: string; symptom: string }>;
  steps_taken?: string[];
  notified?: Array<{ user_id: string; role: string }>;
}

export interface KnowledgeArticle {
  id: string;
  title: string;
  category: string;
  os: string[];
  keywords: string[];
  steps: string[];
}

export interface ServiceStatus {
  service: string;
  status: 'operational' | 'degraded' | 'outage';
  incident_id?: string;
  summary?: string;
  next_update?: string;
}

/**
 * The helpdesk's data, as fixtures/helpdesk/directory.json holds it: the organisation, its people, devices,
 * tickets, articles and services.
 */
export interface HelpdeskDirectory {
  org: { name: string; domain: string };
  users: HelpdeskUser[];
  devices: HelpdeskDevice[];
  tickets: HelpdeskTicket[];
  knowledge_base: KnowledgeArticle[];
  services: ServiceStatus[];
  /** The promised response time by priority (`P1` → `30 minutes`). */
  target_response: Record<string, string>;
  /** The number of the first ticket an episode opens. */
  first_ticket_number: number;
}

/** A message the directory "sent" (a one-time code, a reset link): what the simulated employee receives. */
export interface OutboxEntry {
  user_id: string;
  kind: 'sms_code' | 'reset_link' | 'manager_request';
  to: string;
  code?: string;
}

/** The mutable state of one episode. */
export interface HelpdeskState {
  directory: HelpdeskDirectory;
  outbox: OutboxEntry[];
  /** Pending one-time codes by user id, with attempts left. */
  codes: Map<string, { code: string; attemptsLeft: number }>;
  /** Verification ids issued in this episode, by id. */
  verifications: Map<string, string>;
  counter: number;
  nextTicket: number;
}

/**
 * One helpdesk tool of `createTools`: takes a call's arguments and returns its result; a refused call throws.
 */
export type HelpdeskTool = (args: Json) => unknown;

/** Where the bundled directory lies, from this module in the source tree or in a build (entry or chunk). */
const directoryLocations = [
  new URL('../../../fixtures/helpdesk/directory.json', import.meta.url),
  new URL('../../fixtures/helpdesk/directory.json', import.meta.url),
  new URL('../fixtures/helpdesk/directory.json', import.meta.url),
];
let pristine: HelpdeskDirectory | undefined;

function readBundledDirectory(): HelpdeskDirectory {
  for (const location of directoryLocations) {
    let text: string;
    try {
      text = readFileSync(location, 'utf8');
    } catch {
      continue;
    }
    return JSON.parse(text) as HelpdeskDirectory;
  }
  throw new HarnessAugmentError(
    'the bundled helpdesk directory (fixtures/helpdesk/directory.json) is not in this installation',
    { kind: 'usage' },
  );
}

/**
 * The directory as shipped in fixtures/helpdesk/directory.json (parsed once, copied for every state).
 *
 * @example
 * loadDirectory().users.length // 13
 */
export function loadDirectory(): HelpdeskDirectory {
  pristine ??= readBundledDirectory();
  return structuredClone(pristine);
}

/**
 * A fresh episode state over a copy of the directory (or the directory given).
 *
 * @example
 * const tools = createTools(createState()); // a fresh directory for one episode
 */
export function createState(directory: HelpdeskDirectory = loadDirectory()): HelpdeskState {
  return {
    directory,
    outbox: [],
    codes: new Map(),
    verifications: new Map(),
    counter: 0,
    nextTicket: directory.first_ticket_number,
  };
}

/** FNV-1a over a string: deterministic codes and ids without a random source. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const char of text) {
    value ^= char.codePointAt(0)!;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function token(seed: string, length: number): string {
  let value = hash(seed);
  let out = '';
  for (let index = 0; index < length; index++) {
    out += alphabet[value % alphabet.length];
    value = hash(`${seed}:${index}:${value}`);
  }
  return out;
}

class ToolFailure extends Error {}

function userById(state: HelpdeskState, userId: unknown): HelpdeskUser {
  const user = state.directory.users.find((candidate) => candidate.user_id === userId);
  if (!user) throw new ToolFailure(`no account has the id ${JSON.stringify(userId)}`);
  return user;
}

function checkVerification(state: HelpdeskState, userId: string, verificationId: unknown) {
  if (state.verifications.get(String(verificationId)) !== userId)
    throw new ToolFailure(
      `verification ${JSON.stringify(verificationId)} is not a verification of ${userId} in this session`,
    );
}

function publicUser(user: HelpdeskUser) {
  return {
    user_id: user.user_id,
    display_name: user.display_name,
    department: user.department,
    status: user.status,
    lock_reason: user.lock_reason,
    phone_on_file: user.phone_masked,
    alternate_email: user.alternate_email_masked,
    manager_user_id: user.manager_user_id,
    last_password_change: user.last_password_change,
  };
}

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9][a-z0-9-]*/g) ?? [];

/**
 * The tool functions over one episode state, by tool name.
 *
 * @example
 * const state = createState();
 * const tools = createTools(state);
 * tools.lookup_user({ identifier: { kind: 'email', value: 'jane.doe@northwind.example' } });
 */
export function createTools(state: HelpdeskState = createState()): Record<string, HelpdeskTool> {
  const { directory } = state;
  return {
    lookup_user({ identifier }) {
      const { kind, value } = identifier as { kind: string; value: string };
      const wanted = value.trim().toLowerCase();
      const field = kind === 'email' ? 'email' : kind === 'employee_id' ? 'employee_id' : 'username';
      const user = directory.users.find((candidate) => candidate[field].toLowerCase() === wanted);
      return user
        ? { found: true, user: publicUser(user) }
        : { found: false, message: `no account has the ${kind.replace('_', ' ')} "${value}"` };
    },

    verify_identity({ user_id, method, code }) {
      const user = userById(state, user_id);
      if (method === 'manager_approval') {
        const manager = user.manager_user_id
          ? directory.users.find((candidate) => candidate.user_id === user.manager_user_id)
          : undefined;
        if (!manager) return { status: 'unavailable', message: 'no manager is on file for this account' };
        state.outbox.push({ user_id: manager.user_id, kind: 'manager_request', to: manager.display_name });
        return {
          status: 'pending_manager_approval',
          manager: manager.display_name,
          request_id: `APR-${token(`${user.user_id}:approval:${state.counter++}`, 6)}`,
        };
      }
      if (!user.phone_masked)
        return { status: 'no_phone_on_file', message: 'this account has no phone for codes' };
      if (code === undefined) {
        const issued = String(hash(`${user.user_id}:code:${state.counter++}`) % 1_000_000).padStart(6, '0');
        state.codes.set(user.user_id, { code: issued, attemptsLeft: 3 });
        state.outbox.push({ user_id: user.user_id, kind: 'sms_code', to: user.phone_masked, code: issued });
        return { status: 'code_sent', sent_to: user.phone_masked, expires_in_minutes: 10 };
      }
      const pending = state.codes.get(user.user_id);
      if (!pending) return { status: 'no_code_pending', message: 'send a code first (call without `code`)' };
      if (pending.code !== code) {
        pending.attemptsLeft = Math.max(0, pending.attemptsLeft - 1);
        if (pending.attemptsLeft === 0) state.codes.delete(user.user_id);
        return { status: 'failed', attempts_left: pending.attemptsLeft };
      }
      state.codes.delete(user.user_id);
      const verificationId = `VER-${token(`${user.user_id}:verified:${state.counter++}`, 6)}`;
      state.verifications.set(verificationId, user.user_id);
      return { status: 'verified', verification_id: verificationId };
    },

    reset_password({ user_id, verification_id, delivery, sign_out_everywhere = true }) {
      const user = userById(state, user_id);
      checkVerification(state, user.user_id, verification_id);
      if (user.status === 'disabled')
        return {
          status: 'refused',
          message: 'the account is disabled; its manager must request reactivation',
        };
      const to = delivery === 'alternate_email' ? user.alternate_email_masked : user.phone_masked;
      if (!to)
        return { status: 'refused', message: `no ${String(delivery).replace('_', ' ')} destination on file` };
      const signedOut = sign_out_everywhere ? user.open_sessions : 0;
      if (sign_out_everywhere) user.open_sessions = 0;
      state.outbox.push({ user_id: user.user_id, kind: 'reset_link', to });
      return {
        status: 'reset_link_sent',
        delivery,
        sent_to: to,
        link_expires_in_minutes: 30,
        sessions_signed_out: signedOut,
      };
    },

    unlock_account({ user_id, verification_id, reason }) {
      const user = userById(state, user_id);
      checkVerification(state, user.user_id, verification_id);
      if (user.status !== 'locked') return { status: 'not_locked', account_status: user.status };
      if (user.lock_reason !== reason)
        return { status: 'refused', message: `the lock reason is ${user.lock_reason}, not ${reason}` };
      if (reason === 'admin_request')
        return { status: 'refused', message: 'admin locks are lifted only by the Identity Team' };
      const cleared = user.failed_attempts;
      user.status = 'active';
      user.lock_reason = null;
      user.failed_attempts = 0;
      return {
        status: 'unlocked',
        failed_attempts_cleared: cleared,
        advice:
          reason === 'travel_lockout'
            ? 'Sign in through the VPN while abroad to avoid another travel lock.'
            : 'Update the password saved on your phone and tablet, which often cause repeated failures.',
      };
    },

    list_devices({ user_id, filter }) {
      userById(state, user_id);
      const { type, status } = (filter ?? {}) as { type?: string; status?: string };
      const devices = directory.devices.filter(
        (device) =>
          device.user_id === user_id &&
          (type === undefined || device.type === type) &&
          (status === undefined || device.status === status),
      );
      return {
        devices: devices.map(({ asset_tag, type, model, os, status }) => ({
          asset_tag,
          type,
          model,
          os,
          status,
        })),
      };
    },

    get_device_status({ asset_tag, checks }) {
      const device = directory.devices.find((candidate) => candidate.asset_tag === asset_tag);
      if (!device) return { found: false, message: `no device has the asset tag ${asset_tag}` };
      const wanted = (checks as string[] | undefined) ?? [
        'compliance',
        'encryption',
        'os_version',
        'last_check_in',
        'warranty',
      ];
      const report: Json = { asset_tag, model: device.model, status: device.status };
      for (const check of wanted) {
        if (check === 'compliance') {
          report.compliance = device.compliance;
          report.compliance_issues = device.compliance_issues;
        } else if (check === 'warranty') report.warranty_until = device.warranty_until;
        else report[check] = device[check as 'encryption' | 'os_version' | 'last_check_in'];
      }
      return report;
    },

    search_knowledge_base({ query, filters, limit = 3 }) {
      const { category, os } = (filters ?? {}) as { category?: string; os?: string[] };
      const terms = words(String(query));
      const scored = directory.knowledge_base
        .filter(
          (article) =>
            (category === undefined || article.category === category) &&
            (os === undefined || os.some((system) => article.os.includes(system))),
        )
        .map((article) => {
          const titleWords = words(article.title);
          const score = terms.reduce(
            (sum, term) =>
              sum + (article.keywords.includes(term) ? 2 : 0) + (titleWords.includes(term) ? 1 : 0),
            0,
          );
          return { article, score };
        })
        .filter((entry) => entry.score > 0)
        // Ties keep the directory's order (Array.prototype.sort is stable).
        .sort((a, b) => b.score - a.score)
        .slice(0, Number(limit));
      return {
        results: scored.map(({ article }) => ({
          id: article.id,
          title: article.title,
          category: article.category,
          steps: article.steps,
        })),
      };
    },

    check_service_status({ services }) {
      return {
        services: (services as string[]).map(
          (name) =>
            directory.services.find((service) => service.service === name) ?? {
              service: name,
              status: 'unknown',
            },
        ),
      };
    },

    create_ticket({ requester_id, category, priority, summary, affected_devices, steps_taken, contact }) {
      userById(state, requester_id);
      const ticket: HelpdeskTicket = {
        ticket_id: `INC-${state.nextTicket++}`,
        requester_id: String(requester_id),
        category: String(category),
        priority: String(priority),
        status: 'open',
        assigned_team: category === 'security' ? 'Security Operations' : 'Service Desk',
        summary: String(summary),
        public_notes: [],
        internal_notes: contact ? [`contact: ${JSON.stringify(contact)}`] : [],
        target_response: directory.target_response[String(priority)] ?? 'unknown',
      };
      if (affected_devices) ticket.affected_devices = affected_devices as HelpdeskTicket['affected_devices'];
      if (steps_taken) ticket.steps_taken = steps_taken as string[];
      directory.tickets.push(ticket);
      return {
        ticket_id: ticket.ticket_id,
        status: ticket.status,
        priority: ticket.priority,
        assigned_team: ticket.assigned_team,
        target_response: ticket.target_response,
      };
    },

    get_ticket({ ticket_id, requester_id }) {
      const ticket = directory.tickets.find((candidate) => candidate.ticket_id === ticket_id);
      if (!ticket) return { found: false, message: `no ticket has the id ${ticket_id}` };
      if (ticket.requester_id !== requester_id)
        return { found: true, shared: false, message: 'this ticket belongs to another employee' };
      return {
        found: true,
        ticket_id: ticket.ticket_id,
        summary: ticket.summary,
        status: ticket.status,
        priority: ticket.priority,
        assigned_team: ticket.assigned_team,
        latest_public_note: ticket.public_notes.at(-1) ?? null,
        target_response: ticket.target_response,
      };
    },

    update_ticket({ ticket_id, note, status }) {
      const ticket = directory.tickets.find((candidate) => candidate.ticket_id === ticket_id);
      if (!ticket) throw new ToolFailure(`no ticket has the id ${ticket_id}`);
      ticket.public_notes.push(String(note));
      if (status !== undefined) ticket.status = String(status);
      return { ticket_id, status: ticket.status, public_notes: ticket.public_notes.length };
    },

    escalate_ticket({ ticket_id, tier, reason, notify }) {
      const ticket = directory.tickets.find((candidate) => candidate.ticket_id === ticket_id);
      if (!ticket) throw new ToolFailure(`no ticket has the id ${ticket_id}`);
      const teams: Record<string, string> = {
        tier2: 'Tier 2 Support',
        security: 'Security Operations',
        field_services: 'Field Services',
        vendor: 'Vendor Management',
      };
      ticket.assigned_team = teams[String(tier)] ?? String(tier);
      ticket.internal_notes.push(`escalated: ${String(reason)}`);
      const people = (notify ?? []) as Array<{ user_id: string; role: string }>;
      ticket.notified = people;
      return {
        ticket_id,
        assigned_team: ticket.assigned_team,
        notified: people.map((person) => ({
          role: person.role,
          name:
            directory.users.find((user) => user.user_id === person.user_id)?.display_name ?? person.user_id,
        })),
      };
    },
  };
}
