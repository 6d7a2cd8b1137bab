// perturbations/tools/_time-rules.ts — the one rule for a harness that already rules on time: its texts speak
// of time zones or fix the current time ("All times are EST", "The current time is 2024-05-15 15:00:00 EST"),
// or say how the agent learns it ("use the provided tools to see what year it is", AgentDojo).
// A tool or parameter that brings its own clock or zone ("UTC when omitted", "current local time") would
// contradict it.

/**
 * Whether a text speaks of time zones or states the current time or date.
 *
 * @example
 * rulesOnTime('The current time is 2024-05-15 15:00:00 EST.') // true
 * rulesOnTime('Quote prices in euros.') // false
 */
export function rulesOnTime(text: string): boolean {
  return timeRule.test(text);
}

const timeRule =
  /\btime[ -]?zones?\b|\btimezone|\b(?:UTC|GMT|EST|EDT|CST|CDT|MST|MDT|PST|PDT|CET|CEST|BST|IST|JST)\b|\bcurrent\s+(?:local\s+)?(?:time|date|year|month|day)\b|\btoday\s+is\b|\bwhat\s+(?:year|month|day|date|time)\s+it\s+is\b|\btoday'?s\s+date\b/iu;
