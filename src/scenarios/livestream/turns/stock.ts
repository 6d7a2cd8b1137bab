// The stock turn: the viewer asks whether a colour or size is in stock.
import type { Kit, ReplyPlan, TurnSpec } from '../kit.js';
import type { Product, ToolResult } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { cap } from './reply-text.js';
import { as, type StockResult } from './tool-results.js';

/** Picks a variant whose status is the wanted one when possible. */
export function pickVariant(k: Kit, p: Product, wanted: 'in_stock' | 'low' | 'sold_out') {
  const status = (stock: number) => (stock === 0 ? 'sold_out' : stock <= 10 ? 'low' : 'in_stock');
  const matching = p.stock.filter((row) => status(row.stock) === wanted);
  return k.pick(matching.length > 0 ? matching : p.stock);
}

export const variantName = (k: Kit, v: { option: string; option_zh: string; size?: string | null }) =>
  k.t(`${v.option}${v.size ? ` ${v.size}` : ''}`, `${v.option_zh}${v.size ? ` ${v.size}` : ''}`);

export function stockTurn(
  k: Kit,
  p: Product,
  options: { followUp?: boolean; wanted?: 'in_stock' | 'low' | 'sold_out' } = {},
): TurnSpec {
  const wanted = options.wanted ?? k.pick(['in_stock', 'in_stock', 'low', 'sold_out', 'sold_out'] as const);
  const row = pickVariant(k, p, wanted);
  const hasSize = row.size !== null;
  const ref = options.followUp ? k.t('it', '') : k.ref(p);
  const colorZh = row.option_zh;
  const f = options.followUp ?? false;
  const viewer = k.t(
    hasSize
      ? k.say(
          p,
          f,
          f
            ? [`does it come in ${row.option}, size ${row.size}?`, `any ${row.size} left in ${row.option}?`]
            : [
                `any ${row.size} left in ${row.option} for ${ref}?`,
                `is ${row.option} ${row.size} sold out on ${ref}?`,
                `${ref} in ${row.option}, size ${row.size}?`,
                `do you still have ${row.size} in ${row.option} (${ref})?`,
              ],
          [`any ${row.size} left in ${row.option}?`, `is ${row.option} ${row.size} sold out?`],
        )
      : k.say(
          p,
          f,
          f
            ? [`is ${row.option} still in stock?`]
            : [`is ${ref} in ${row.option} still in stock?`, `${row.option} still available for ${ref}?`],
          [`any ${row.option} left?`],
        ),
    hasSize
      ? k.say(
          p,
          f,
          [`${ref}${colorZh}${row.size}还有吗`, `${ref}${colorZh}还有${row.size}吗`],
          [`${colorZh}${row.size}码有货吗`, `${colorZh}${row.size}是不是没了`],
        )
      : k.say(p, f, [`${ref}${colorZh}还有吗`], [`${colorZh}有货吗`, `${colorZh}还能拍吗`]),
  );
  const variant: Record<string, string> = { color: k.lang === 'zh' && k.chance(0.5) ? colorZh : row.option };
  if (hasSize) variant.size = row.size!;
  return {
    viewer,
    intents: ['stock'],
    skills: ['stock_check'],
    steps: [
      [call('check_stock_and_sizes', { link_id: p.link_id, variant })],
      (results) => {
        const found = as<StockResult>(results[0]?.[0]).variants[0]!;
        if (found.status !== 'sold_out') return null;
        return [
          call(
            'check_stock_and_sizes',
            hasSize ? { link_id: p.link_id, variant: { size: row.size } } : { link_id: p.link_id },
          ),
        ];
      },
    ],
    compose: (results) => stockReply(k, p, results),
    slips: GENERIC,
  };
}

function stockReply(k: Kit, p: Product, results: ToolResult[][]): ReplyPlan {
  const v = as<StockResult>(results[0]?.[0]).variants[0]!;
  const name = variantName(k, v);
  if (v.status === 'in_stock') {
    return {
      candidates: k.t(
        [`Yes! ${cap(name)} is in stock on link ${p.link_id} 👍`, `${cap(name)} is available, go for it!`],
        [`${name}有货的，放心拍～`, `${p.link_id}号${name}有货哦～`],
      ),
    };
  }
  if (v.status === 'low') {
    return {
      candidates: k.t(
        [`Only ${v.stock} left in ${name} on link ${p.link_id}!`, `${cap(name)}: just ${v.stock} left.`],
        [`${name}只剩${v.stock}件了～`, `${name}还剩${v.stock}件哦`],
      ),
    };
  }
  const others = (as<StockResult>(results[1]?.[0])?.variants ?? []).filter(
    (row) => row.status !== 'sold_out',
  );
  const alt = others.find((row) => row.status === 'in_stock') ?? others[0];
  const restock = v.restock_in_days;
  const restockEn = restock !== undefined ? ` Restock expected in ${restock} days.` : '';
  const restockZh = restock !== undefined ? `，预计${restock}天补货` : '';
  if (!alt) {
    return {
      candidates: k.t(
        [
          `Sorry, ${name} is sold out and there's no close alternative right now.${restockEn}`,
          `Sorry, ${name} is sold out.${restockEn}`,
        ],
        [`抱歉，${name}暂时售罄啦${restockZh}～`],
      ),
    };
  }
  const altName = variantName(k, alt);
  return {
    candidates: k.t(
      [
        `Sorry, ${name} is sold out.${restockEn} ${cap(altName)} is still available!`,
        `${cap(name)} is sold out, but ${altName} is in stock.`,
      ],
      [`${name}暂时售罄啦${restockZh}，${altName}还有货～`, `${name}没了，可以看看${altName}～`],
    ),
  };
}
