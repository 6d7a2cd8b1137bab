// The multi-intent turn: one danmaku with two questions, answered in one short reply.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product, ToolResult } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { cap, priceNow, yen } from './reply-text.js';
import { randomBody } from './size.js';
import { pickVariant, variantName } from './stock.js';
import {
  type AfterSalesResult,
  as,
  type InfoResult,
  type PriceResult,
  type ShippingResult,
  type SizeResult,
  type StockResult,
} from './tool-results.js';

/** One part of a two-question danmaku: its question, skill, call and short answers (longest first). */
interface Part {
  en: string;
  zh: string;
  skill: string;
  intent: string;
  call: { name: string; args: Record<string, unknown> };
  answer: (result: ToolResult) => string[];
}

export type PartKind = 'price' | 'stock' | 'size' | 'shipping' | 'item' | 'returns';

export function part(k: Kit, p: Product, kind: PartKind): Part {
  switch (kind) {
    case 'price':
      return {
        en: k.pick([`how much is ${k.ref(p)}`, `price of ${k.ref(p)}`]),
        zh: k.pick([`${k.ref(p)}多少钱`, `${k.ref(p)}到手多少`]),
        skill: 'price_and_coupons',
        intent: 'price',
        call: call('get_price_and_coupons', { link_id: p.link_id }),
        answer: (result) => {
          const r = as<PriceResult>(result);
          return k.t(
            [
              `link ${p.link_id} is ${priceNow(k, r)} (list ${yen(r.list_price)})`,
              `link ${p.link_id} is ${priceNow(k, r)}`,
              priceNow(k, r),
            ],
            [`${p.link_id}号${priceNow(k, r)}（原价¥${r.list_price}）`, priceNow(k, r)],
          );
        },
      };
    case 'stock': {
      const row = pickVariant(k, p, k.pick(['in_stock', 'low', 'sold_out'] as const));
      const name = variantName(k, row);
      const variant: Record<string, string> = { color: row.option };
      if (row.size) variant.size = row.size;
      return {
        en: k.pick([`is ${name} in stock`, `any ${name} left`]),
        zh: k.pick([`${name}有货吗`, `${name}还有吗`]),
        skill: 'stock_check',
        intent: 'stock',
        call: call('check_stock_and_sizes', { link_id: p.link_id, variant }),
        answer: (result) => {
          const v = as<StockResult>(result).variants[0]!;
          return v.status === 'in_stock'
            ? k.t([`${name} is in stock`], [`${name}有货`])
            : v.status === 'low'
              ? k.t([`only ${v.stock} left in ${name}`], [`${name}只剩${v.stock}件`])
              : k.t(
                  [
                    `${name} is sold out${v.restock_in_days !== undefined ? `, restock in ${v.restock_in_days} days` : ''}`,
                    `${name} is sold out`,
                  ],
                  [
                    `${name}暂时售罄${v.restock_in_days !== undefined ? `，约${v.restock_in_days}天补货` : ''}`,
                    `${name}暂时售罄`,
                  ],
                );
        },
      };
    }
    case 'size': {
      const body = randomBody(k, p);
      const w = body.jin ? `${body.weight * 2}斤` : `${body.weight}kg`;
      return {
        en: k.pick([
          `what size for ${body.height}cm ${body.weight}kg`,
          `I'm ${body.height}/${body.weight}kg, which size`,
        ]),
        zh: k.pick([`${body.height} ${w}穿什么码`, `身高${body.height}体重${w}选几码`]),
        skill: 'size_advice',
        intent: 'size',
        call: call('recommend_size', {
          link_id: p.link_id,
          body: { height_cm: body.height, weight_kg: body.weight },
        }),
        answer: (result) => {
          const r = as<SizeResult>(result);
          const m =
            r.chart_row.chest_cm !== undefined
              ? `chest ${r.chart_row.chest_cm} cm`
              : `waist ${r.chart_row.waist_cm} cm`;
          const mZh =
            r.chart_row.chest_cm !== undefined
              ? `胸围${r.chart_row.chest_cm}cm`
              : `腰围${r.chart_row.waist_cm}cm`;
          return k.t(
            [`${r.recommended_size} should fit you (${m})`, `go ${r.recommended_size}`],
            [`建议${r.recommended_size}码（${mZh}）`, `建议${r.recommended_size}码`],
          );
        },
      };
    }
    case 'shipping': {
      const province = k.chance(0.6) ? k.pick(k.shop.data.provinces) : undefined;
      return {
        en: province
          ? k.pick([`does it ship to ${province.en}`, `how long to ${province.en}`])
          : k.pick(['when does it ship', 'which courier']),
        zh: province
          ? k.pick([`发${province.zh}吗`, `到${province.zh}几天`])
          : k.pick(['什么时候发货', '发什么快递']),
        skill: 'shipping_eta',
        intent: 'shipping',
        call: call(
          'get_shipping_info',
          province
            ? { link_id: p.link_id, destination_province: k.t(province.en, province.zh) }
            : { link_id: p.link_id },
        ),
        answer: (result) => {
          const r = as<ShippingResult>(result);
          const when =
            r.ships === 'today'
              ? k.t(`ships today if you order by ${r.cutoff}`, `${r.cutoff}前下单当天发`)
              : k.t('ships tomorrow', '明天发货');
          const remote = r.remote
            ? k.t(` (¥${r.remote_fee} remote fee)`, `（偏远运费¥${r.remote_fee}）`)
            : '';
          const to = r.destination ? k.t(` to ${r.destination.en}`, `到${r.destination.zh}`) : '';
          return k.t(
            [
              `${when} by ${r.carrier.en}, usually ${r.eta_days_min}-${r.eta_days_max} days${to}${remote}`,
              `${when}, usually ${r.eta_days_min}-${r.eta_days_max} days${to}${remote}`,
            ],
            [`${when}，一般${r.eta_days_min}-${r.eta_days_max}天${to}${remote}`],
          );
        },
      };
    }
    case 'item': {
      const key = k.pick(Object.keys(p.specs).filter((spec) => k.phrases.spec_questions[spec]));
      const { en, zh } = k.phrases.spec_questions[key]!;
      return {
        en: k.pick(en).replace('{ref}', k.ref(p)).replace(/\?$/, ''),
        zh: k.pick(zh).replace('{ref}', k.ref(p)),
        skill: 'item_qa',
        intent: 'item_qa',
        call: call('get_product_info_by_link_id', { link_id: p.link_id }),
        answer: (result) => {
          const spec = as<InfoResult>(result).specs[key]!;
          return k.t([spec.en], [spec.zh]);
        },
      };
    }
    case 'returns':
      return {
        en: k.pick(
          p.category === 'apparel'
            ? ["can I return it if it doesn't fit", "free returns if it doesn't fit"]
            : ["can I return it if I don't like it", '7-day returns'],
        ),
        zh: k.pick(['能退吗', '支持七天无理由吗']),
        skill: 'after_sales',
        intent: 'after_sales',
        call: call('get_after_sales_policy', { link_id: p.link_id, issue_type: 'no_reason_return' }),
        answer: (result) => {
          const r = as<AfterSalesResult>(result);
          return k.t(
            [
              `${r.no_reason_return_days}-day no-reason returns (${r.conditions.en})`,
              `${r.no_reason_return_days}-day no-reason returns`,
            ],
            [
              `支持${r.no_reason_return_days}天无理由（${r.conditions.zh}）`,
              `支持${r.no_reason_return_days}天无理由`,
            ],
          );
        },
      };
  }
}

export function multiTurn(k: Kit, p: Product, first: Part, second: Part): TurnSpec {
  let viewer = k.t(
    k.pick([
      `${first.en}? and ${second.en}?`,
      `${first.en} and ${second.en}?`,
      `${cap(first.en)}? also ${second.en}?`,
    ]),
    k.pick([`${first.zh} ${second.zh}`, `${first.zh}？${second.zh}？`, `主播 ${first.zh}，${second.zh}`]),
  );
  // Two questions that do not name the product need a reference unless it is the one on screen.
  const named = ['price', 'item'];
  if (
    !k.isCurrent(p) &&
    !named.includes(first.intent === 'item_qa' ? 'item' : first.intent) &&
    !named.includes(second.intent === 'item_qa' ? 'item' : second.intent)
  ) {
    viewer = k.t(
      `${k.ref(p, { allowName: true })}: ${viewer.charAt(0).toLowerCase()}${viewer.slice(1)}`,
      `${k.ref(p)} ${viewer}`,
    );
  }
  const skills = [...new Set([first.skill, second.skill])];
  return {
    viewer,
    intents: [first.intent, second.intent],
    strategy: ['multi_intent_planner'],
    skills,
    steps: [[first.call, second.call]],
    compose: (results) => {
      const [a, b] = [first.answer(results[0]![0]!), second.answer(results[0]![1]!)];
      const candidates: string[] = [];
      for (const x of a) for (const y of b) candidates.push(k.t(`${cap(x)}; ${y}.`, `${x}；${y}～`));
      return { candidates };
    },
    slips: GENERIC,
  };
}
