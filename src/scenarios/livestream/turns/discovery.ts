// The discovery turns: the viewer looks for something; the host searches the catalog (and says so when the
// shop does not carry it).
import type { Kit, TurnSpec } from '../kit.js';
import type { DiscoveryQuery, MissingQuery } from '../phrases.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { yen } from './reply-text.js';
import { as, type SearchResult } from './tool-results.js';

export function discoveryTurn(k: Kit, query: DiscoveryQuery): TurnSpec {
  const args = k.t(query.args.en, query.args.zh);
  return {
    viewer: k.t(query.en, query.zh),
    intents: ['discovery'],
    strategy: ['product_discovery'],
    skills: ['item_qa'],
    steps: [[call('search_catalog', args)]],
    compose: (results) => {
      const r = as<SearchResult>(results[0]?.[0]);
      const [a, second] = r.results;
      // A second pick only when it is as relevant as the first.
      const b = second && a && second.relevance >= a.relevance ? second : undefined;
      if (!a) throw new Error(`search ${JSON.stringify(args)} found nothing`);
      if (!b) {
        return {
          candidates: k.t(
            [
              `Try link ${a.link_id}, the ${a.short_name.en}, at ${yen(a.live_price)}; it suits ${a.suits.en}.`,
              `Try link ${a.link_id}, the ${a.short_name.en}, at ${yen(a.live_price)}!`,
            ],
            [
              `可以看看${a.link_id}号${a.short_name.zh}，¥${a.live_price}，适合${a.suits.zh}～`,
              `推荐${a.link_id}号${a.short_name.zh}，¥${a.live_price}～`,
            ],
          ),
        };
      }
      return {
        candidates: k.t(
          [
            `Try link ${a.link_id}, the ${a.short_name.en} (${yen(a.live_price)}), or link ${b.link_id}, the ${b.short_name.en} (${yen(b.live_price)})!`,
            `Link ${a.link_id} ${a.short_name.en} at ${yen(a.live_price)}, or link ${b.link_id} at ${yen(b.live_price)}.`,
          ],
          [
            `可以看看${a.link_id}号${a.short_name.zh}（¥${a.live_price}）或${b.link_id}号${b.short_name.zh}（¥${b.live_price}）～`,
            `推荐${a.link_id}号（¥${a.live_price}）和${b.link_id}号（¥${b.live_price}）～`,
          ],
        ),
      };
    },
    slips: GENERIC,
  };
}

/** Two empty searches, then an honest "we don't carry it"; with `loop`, the model keeps searching until the call budget ends the turn. */
export function missingTurn(k: Kit, item: MissingQuery, loop: boolean): TurnSpec {
  const queries = k.t(item.queries.en, item.queries.zh);
  const searches = loop ? queries : queries.slice(0, 2);
  return {
    viewer: k.t(item.en, item.zh),
    intents: ['discovery'],
    strategy: ['product_discovery'],
    skills: ['item_qa'],
    steps: searches.map((query) => [call('search_catalog', { query })]),
    compose: (results) => {
      if (results.some((step) => as<SearchResult>(step[0]).total > 0))
        throw new Error(`search for ${item.en} found something`);
      return {
        candidates: k.t(
          [
            `Sorry, we don't carry ${item.thing[0]} in this room tonight. Ask me about anything in the cart!`,
            `Sorry, no ${item.thing[0]} here tonight.`,
          ],
          [
            `抱歉，今晚直播间没有${item.thing[1]}哦，购物车里的可以随时问我～`,
            `抱歉，没有${item.thing[1]}哦～`,
          ],
        ),
      };
    },
    slips: loop ? [] : ['skill_first', 'too_long', 'banned', 'bad_args'],
    overrun: loop,
  };
}
