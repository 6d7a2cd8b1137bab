// The size turn: the viewer gives height and weight and asks which size to take.
import type { Kit, ReplyPlan, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { as, type SizeResult } from './tool-results.js';

export interface Body {
  height: number;
  weight: number;
  fit: 'slim' | 'regular' | 'loose';
  jin: boolean;
}

export function randomBody(k: Kit, p: Product): Body {
  const kind = p.size_chart_kind;
  const [hMin, hMax, wMin, wMax] =
    kind === 'dress'
      ? [150, 171, 42, 62]
      : kind === 'bottoms'
        ? [155, 177, 45, 74]
        : kind === 'jeans'
          ? [152, 185, 43, 79]
          : [155, 188, 46, 90];
  const height = hMin + Math.floor(k.rng() * (hMax - hMin + 1));
  // Weight follows height through a plausible BMI, so that no viewer is 188 cm and 46 kg.
  const [bmiMin, bmiMax] = kind === 'dress' ? [17.5, 24] : [18.5, 27];
  const bmi = bmiMin + k.rng() * (bmiMax - bmiMin);
  const weight = Math.min(wMax, Math.max(wMin, Math.round(bmi * (height / 100) ** 2)));
  const fit = k.pick(['regular', 'regular', 'regular', 'regular', 'slim', 'loose'] as const);
  return { height, weight, fit, jin: k.lang === 'zh' && k.chance(0.6) };
}

export function sizeTurn(
  k: Kit,
  p: Product,
  body: Body,
  options: { followUp?: boolean; pronoun?: boolean; missingWeight?: boolean } = {},
): TurnSpec {
  const ref = options.followUp || options.pronoun ? '' : k.ref(p);
  const fitEn = body.fit === 'slim' ? ', I like it fitted' : body.fit === 'loose' ? ', I like it loose' : '';
  const fitZh = body.fit === 'slim' ? '，喜欢修身一点' : body.fit === 'loose' ? '，喜欢宽松一点' : '';
  const w = body.jin ? `${body.weight * 2}斤` : `${body.weight}kg`;
  if (options.missingWeight) {
    return {
      viewer: k.t(
        k.say(
          p,
          false,
          [`what size for ${ref}? I'm ${body.height}cm`, `I'm ${body.height}cm, which size of ${ref}?`],
          [`${body.height}cm, which size?`, `I'm ${body.height} tall, M or L?`],
        ),
        k.say(
          p,
          false,
          [`${body.height}cm ${ref}选几码`, `身高${body.height}，${ref}穿什么码`],
          [`身高${body.height}穿什么码`, `我${body.height}，拍什么码`],
        ),
      ),
      intents: ['size'],
      skills: ['size_advice'],
      steps: [],
      compose: () => ({
        candidates: k.t(
          [
            `Happy to help! What's your weight in kg? Then I can match the size chart for you.`,
            `Sure! Tell me your weight too (kg) and I'll check the size chart.`,
          ],
          ['可以的～再告诉我体重多少斤，我帮你对照尺码表', '好的～体重多少呀？我帮你看尺码表'],
        ),
      }),
      slips: ['skill_first', 'too_long', 'banned'],
    };
  }
  const h = body.height;
  const viewer = options.followUp
    ? k.t(
        k.pick([`${body.weight}kg`, `oh I'm ${body.weight}kg${fitEn}`, `${body.weight} kg, thanks!`]),
        k.pick([`${w}${fitZh}`, `体重${w}`, `${w}哦`]),
      )
    : options.pronoun
      ? k.t(
          k.pick([
            `I'm ${h}cm ${body.weight}kg, what size should I get?`,
            `${h}/${body.weight}kg, which size${fitEn}?`,
            `what size for ${h} cm, ${body.weight} kg${fitEn}?`,
          ]),
          k.pick([`身高${h}体重${w}穿什么码${fitZh}`, `${h} ${w}拍什么码`, `我${h}，${w}${fitZh}，穿几码`]),
        )
      : k.t(
          k.pick([
            `I'm ${h}cm ${body.weight}kg, what size for ${ref}?`,
            `${h}/${body.weight}kg, which size of ${ref}${fitEn}?`,
            `what size should I get in ${ref}? ${h} cm, ${body.weight} kg${fitEn}`,
            `size for ${h}cm and ${body.weight}kg? ${ref}`,
          ]),
          k.pick([
            `身高${h}体重${w}${ref}穿什么码${fitZh}`,
            `${h} ${w} ${ref}拍什么码`,
            `我${h}，${w}${fitZh}，${ref}穿几码`,
            `${ref} ${h}cm ${w}选哪个码`,
          ]),
        );
  const args = {
    link_id: p.link_id,
    body: {
      height_cm: body.height,
      weight_kg: body.weight,
      ...(body.fit !== 'regular' ? { fit: body.fit } : {}),
    },
  };
  return {
    viewer,
    intents: ['size'],
    skills: ['size_advice'],
    steps: [
      [call('recommend_size', args)],
      (results) => {
        const r = as<SizeResult>(results[0]?.[0]);
        return r.stock_of_recommended === 0
          ? [call('check_stock_and_sizes', { link_id: p.link_id, variant: { size: r.recommended_size } })]
          : null;
      },
    ],
    compose: (results) => sizeReply(k, body, as<SizeResult>(results[0]?.[0])),
    slips: GENERIC,
  };
}

function sizeReply(k: Kit, body: Body, r: SizeResult): ReplyPlan {
  const row = r.chart_row;
  const measure =
    row.chest_cm !== undefined
      ? k.t(`chest ${row.chest_cm} cm`, `胸围${row.chest_cm}cm`)
      : k.t(`waist ${row.waist_cm} cm`, `腰围${row.waist_cm}cm`);
  const alt = r.alternative;
  const altEn = alt ? `; ${alt.size} for ${alt.for}` : '';
  const altZh = alt ? `，想要${alt.for === 'a looser fit' ? '宽松' : '合身'}一点可选${alt.size}` : '';
  const who = k.t(
    `${body.height}cm/${body.weight}kg`,
    body.jin ? `${body.height}cm ${body.weight * 2}斤` : `${body.height}cm ${body.weight}kg`,
  );
  if (r.stock_of_recommended === 0) {
    return {
      candidates: k.t(
        [
          `${r.recommended_size} fits you (${measure}), but it's sold out right now${alt ? `; ${alt.size} is the alternative` : ''}.`,
        ],
        [`建议${r.recommended_size}码（${measure}），但暂时售罄了${alt ? `，可以考虑${alt.size}` : ''}～`],
      ),
    };
  }
  return {
    candidates: k.t(
      [
        `For ${who} I'd go ${r.recommended_size} (${measure})${altEn}.`,
        `${r.recommended_size} should fit you (${measure})${altEn}.`,
        `${r.recommended_size} fits ${who}.`,
      ],
      [
        `${who}建议${r.recommended_size}码（${measure}）${altZh}～`,
        `建议拍${r.recommended_size}码～${altZh}`,
      ],
    ),
  };
}
