// The compare turn: the viewer asks which of two links is better on one aspect.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { yen } from './reply-text.js';
import type { BiText, CompareItem } from './tool-results.js';

export function compareTurn(k: Kit, a: Product, b: Product, aspect: string): TurnSpec {
  const { en, zh } = k.phrases.compare_questions[aspect] ?? k.phrases.compare_questions.features!;
  const question = k.pick(k.t(en, zh));
  const viewer = k.t(
    k.pick([
      `link ${a.link_id} vs link ${b.link_id}, ${question}`,
      `${a.link_id} or ${b.link_id}? ${question}`,
      `compare #${a.link_id} and #${b.link_id} pls, ${question}`,
      `the ${a.short_name.en} or the ${b.short_name.en}, ${question}`,
    ]),
    k.pick([
      `${a.link_id}号和${b.link_id}号${question}`,
      `${a.link_id}号跟${b.link_id}号比，${question}`,
      `${a.short_name.zh}和${b.short_name.zh}${question}`,
    ]),
  );
  return {
    viewer,
    intents: ['compare'],
    skills: ['spec_compare'],
    steps: [[call('compare_products', { link_ids: [a.link_id, b.link_id], aspects: ['price', aspect] })]],
    compose: (results) => {
      const items = (results[0]![0] as unknown as { items: CompareItem[] }).items;
      const [x, y] = [items[0]!, items[1]!];
      const spec = (item: CompareItem) => item[aspect] as BiText;
      return {
        candidates: k.t(
          [
            `Link ${x.link_id}: ${spec(x).en}. Link ${y.link_id}: ${spec(y).en}. ${yen(x.live_price)} vs ${yen(y.live_price)}.`,
            `Link ${x.link_id}: ${spec(x).en}. Link ${y.link_id}: ${spec(y).en}.`,
            `Link ${x.link_id} (${yen(x.live_price)}) suits ${x.suits.en}; link ${y.link_id} (${yen(y.live_price)}) suits ${y.suits.en}.`,
            `Link ${x.link_id} suits ${x.suits.en}; link ${y.link_id} suits ${y.suits.en}.`,
          ],
          [
            `${x.link_id}号${spec(x).zh}；${y.link_id}号${spec(y).zh}。价格¥${x.live_price} vs ¥${y.live_price}～`,
            `${x.link_id}号${spec(x).zh}；${y.link_id}号${spec(y).zh}～`,
            `${x.link_id}号适合${x.suits.zh}，${y.link_id}号适合${y.suits.zh}～`,
          ],
        ),
      };
    },
    slips: GENERIC,
  };
}
