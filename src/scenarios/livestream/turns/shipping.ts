// The shipping turn: when a link ships and how long it takes to a province.
import type { Province } from '../catalog.js';
import type { Kit, ReplyPlan, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { deliveryPromises, GENERIC } from './mistakes.js';
import { as, type ShippingResult } from './tool-results.js';

export function shippingTurn(
  k: Kit,
  p: Product,
  options: { followUp?: boolean; province?: Province | null; deadline?: boolean } = {},
): TurnSpec {
  const deadline = options.deadline ?? k.chance(0.25);
  const province = deadline
    ? null
    : options.province === undefined
      ? k.chance(0.55)
        ? k.pick(k.shop.data.provinces)
        : null
      : options.province;
  const f = options.followUp ?? false;
  const ref = f ? '' : k.ref(p);
  const it = ref || 'it';
  const place = province ? k.t(province.en, province.zh) : '';
  const when = k.pick(['friday', 'tomorrow', 'weekend'] as const);
  let viewer: string;
  if (deadline) {
    const en = {
      friday: `I need ${it} by Friday for a party, will it arrive?`,
      tomorrow: `if I order ${it} now will I get it tomorrow?`,
      weekend: `will ${it} get here by the weekend?`,
    };
    const zh = {
      friday: `${ref}周五前能到吗 急用`,
      tomorrow: `${ref}今天下单明天能到吗`,
      weekend: `${ref}周末前能收到吗`,
    };
    const enRefless = {
      friday: 'I need it by Friday, will it arrive?',
      tomorrow: 'if I order now will I get it tomorrow?',
      weekend: 'can you make sure it gets here by the weekend?',
    };
    const zhRefless = {
      friday: '周五前能到吗 急用',
      tomorrow: '今天下单明天能到吗',
      weekend: '周末前能收到吗',
    };
    viewer = k.t(k.say(p, f, [en[when]], [enRefless[when]]), k.say(p, f, [zh[when]], [zhRefless[when]]));
  } else if (province) {
    viewer = k.t(
      k.say(
        p,
        f,
        f
          ? [`how long to ${place}?`, `does it ship to ${place}?`]
          : [
              `does ${ref} ship to ${place}?`,
              `${place} here, when would I get ${ref}?`,
              `how long to ${place} for ${ref}?`,
            ],
        [`how long to ${place}?`, `shipping to ${place}, how many days?`],
      ),
      k.say(
        p,
        f,
        [`${ref}发${place}吗`, `${ref}到${place}几天`],
        [`发${place}要几天`, `${place}几天能到`, `${place}包邮吗`],
      ),
    );
  } else {
    viewer = k.t(
      k.say(
        p,
        f,
        f
          ? ['when will it ship?', 'which courier?']
          : [`when will ${ref} ship?`, `which courier for ${ref}?`, `where does ${ref} ship from?`],
        ['if I order now does it ship today?', 'when does it ship?'],
      ),
      k.say(
        p,
        f,
        [`${ref}发什么快递`, `${ref}从哪里发货`, `${ref}什么时候发货`],
        ['几点前下单当天发', '什么时候发货', '发什么快递'],
      ),
    );
  }
  const args: Record<string, unknown> = { link_id: p.link_id };
  if (province) args.destination_province = k.t(province.en, province.zh);
  return {
    viewer,
    intents: ['shipping'],
    skills: ['shipping_eta'],
    steps: [[call('get_shipping_info', args)]],
    compose: (results) => shippingReply(k, as<ShippingResult>(results[0]?.[0]), deadline ? when : undefined),
    slips: ['delivery', ...GENERIC],
  };
}

function shippingReply(k: Kit, r: ShippingResult, deadline?: 'friday' | 'tomorrow' | 'weekend'): ReplyPlan {
  const from = r.ship_from;
  const carrier = r.carrier;
  const range = `${r.eta_days_min}-${r.eta_days_max}`;
  const to = r.destination ? k.t(` to ${r.destination.en}`, `到${r.destination.zh}`) : '';
  const remoteEn = r.remote ? ` Remote area: ¥${r.remote_fee} shipping.` : '';
  const remoteZh = r.remote ? `偏远地区运费¥${r.remote_fee}哦` : '';
  const candidates =
    r.ships === 'today'
      ? k.t(
          [
            `Order before ${r.cutoff} and it leaves ${from.en} today by ${carrier.en}; usually ${range} days${to}.${remoteEn}`,
            `Ships today from ${from.en} if you order by ${r.cutoff}, usually ${range} days${to}.${remoteEn}`,
            `Order by ${r.cutoff} to ship today; usually ${range} days${to}.${remoteEn}`,
          ],
          [
            `${r.cutoff}前下单今天从${from.zh}发${carrier.zh}，一般${range}天${to}～${remoteZh}`,
            `${r.cutoff}前拍当天发，一般${range}天${to}～${remoteZh}`,
          ],
        )
      : k.t(
          [
            `Today's ${r.cutoff} cut-off has passed, so it ships tomorrow from ${from.en} by ${carrier.en}; usually ${range} days${to}.${remoteEn}`,
            `It ships tomorrow from ${from.en} by ${carrier.en}, usually ${range} days${to} after dispatch.${remoteEn}`,
            `Ships tomorrow (cut-off ${r.cutoff}), usually ${range} days${to}.${remoteEn}`,
          ],
          [
            `今天${r.cutoff}已截单，明天从${from.zh}发${carrier.zh}，发货后一般${range}天${to}～${remoteZh}`,
            `明天发${carrier.zh}，一般${range}天${to}～${remoteZh}`,
          ],
        );
  return {
    candidates,
    slips: { delivery: deliveryPromises(k, r, deadline) },
  };
}
