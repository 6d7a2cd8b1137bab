// Short Chinese, Japanese and Greek labels for common English words of skill ids and descriptions, and the
// word for "skill" in each script: skill-ids/rename writes non-ASCII labels with them, and the name-meaning
// rule (name-meaning.ts) reads a label as faithful when it translates words of the name or description.

/** The scripts of non-ASCII labels: Chinese, Japanese, Greek. */
export type Script = 'zh' | 'ja' | 'el';

/**
 * Every script, in a fixed order for seeded picks.
 *
 * @example
 * rng.pick(scripts) // 'ja'
 */
export const scripts: readonly Script[] = ['zh', 'ja', 'el'];

/**
 * The word for "skill", used in fallback codes such as `技能-07`.
 *
 * @example
 * `${skillWord.zh}-07` // '技能-07'
 */
export const skillWord: Record<Script, string> = { zh: '技能', ja: 'スキル', el: 'δεξιότητα' };

/**
 * How words join into one label: CJK labels run together, Greek words join with `-`.
 *
 * @example
 * ['τιμή', 'κουπόνι'].join(wordJoiner.el) // 'τιμή-κουπόνι'
 */
export const wordJoiner: Record<Script, string> = { zh: '', ja: '', el: '-' };

/**
 * English word (lower case, singular) → [Chinese, Japanese, Greek].
 *
 * @example
 * lexicon.price // ['价格', '価格', 'τιμή']
 */
export const lexicon: Readonly<Record<string, readonly [string, string, string]>> = {
  account: ['账户', 'アカウント', 'λογαριασμός'],
  advice: ['建议', '助言', 'συμβουλή'],
  after: ['售后', 'アフター', 'μετά'],
  answer: ['回答', '回答', 'απάντηση'],
  apology: ['致歉', '謝罪', 'συγγνώμη'],
  baggage: ['行李', '手荷物', 'αποσκευές'],
  billing: ['账单', '請求', 'χρέωση'],
  booking: ['预订', '予約', 'κράτηση'],
  cancel: ['取消', '取消', 'ακύρωση'],
  cart: ['购物车', 'カート', 'καλάθι'],
  chat: ['闲聊', '雑談', 'κουβέντα'],
  // `chit_chat` is small talk as a whole: both words read as the one label.
  chit: ['闲聊', '雑談', 'κουβέντα'],
  check: ['核对', '確認', 'έλεγχος'],
  compare: ['对比', '比較', 'σύγκριση'],
  complaint: ['投诉', '苦情', 'παράπονο'],
  compliance: ['合规', '遵守', 'συμμόρφωση'],
  coupon: ['优惠券', 'クーポン', 'κουπόνι'],
  delivery: ['配送', '配達', 'παράδοση'],
  discovery: ['发现', '発見', 'ανακάλυψη'],
  eta: ['时效', '到着', 'άφιξη'],
  explain: ['说明', '説明', 'εξήγηση'],
  faq: ['问答', '質問', 'ερωτήσεις'],
  first: ['优先', '優先', 'πρώτα'],
  flight: ['航班', '便', 'πτήση'],
  greeting: ['问候', '挨拶', 'χαιρετισμός'],
  guard: ['守护', '防御', 'φύλακας'],
  handling: ['处理', '対応', 'χειρισμός'],
  help: ['帮助', '支援', 'βοήθεια'],
  intent: ['意图', '意図', 'πρόθεση'],
  item: ['商品', '商品', 'είδος'],
  multi: ['多重', '複数', 'πολλαπλό'],
  objection: ['异议', '反論', 'αντίρρηση'],
  order: ['订单', '注文', 'παραγγελία'],
  payment: ['支付', '支払い', 'πληρωμή'],
  plan: ['规划', '計画', 'σχέδιο'],
  planner: ['规划', '計画', 'σχεδιαστής'],
  policy: ['政策', '規定', 'πολιτική'],
  price: ['价格', '価格', 'τιμή'],
  product: ['产品', '製品', 'προϊόν'],
  promo: ['促销', '販促', 'προσφορά'],
  promotion: ['促销', '販促', 'προσφορά'],
  purchase: ['购买', '購入', 'αγορά'],
  push: ['推进', '後押し', 'ώθηση'],
  qa: ['问答', '質疑', 'ερωταπαντήσεις'],
  question: ['问题', '質問', 'ερώτηση'],
  rebooking: ['改签', '予約変更', 'αλλαγή'],
  refund: ['退款', '返金', 'επιστροφή'],
  reply: ['回复', '返信', 'απάντηση'],
  return: ['退货', '返品', 'επιστροφή'],
  rule: ['规则', '規則', 'κανόνας'],
  sale: ['销售', '販売', 'πώληση'],
  sales: ['售后', '販売', 'πωλήσεις'],
  search: ['搜索', '検索', 'αναζήτηση'],
  seat: ['座位', '座席', 'θέση'],
  shipping: ['物流', '配送', 'αποστολή'],
  size: ['尺码', 'サイズ', 'μέγεθος'],
  spec: ['规格', '仕様', 'προδιαγραφή'],
  stock: ['库存', '在庫', 'απόθεμα'],
  strategy: ['策略', '戦略', 'στρατηγική'],
  support: ['支持', 'サポート', 'υποστήριξη'],
  ticket: ['工单', 'チケット', 'εισιτήριο'],
  warranty: ['保修', '保証', 'εγγύηση'],
};

const scriptIndex: Record<Script, 0 | 1 | 2> = { zh: 0, ja: 1, el: 2 };

/**
 * The label of an English word in a script, trying the singular too; undefined when the lexicon lacks it.
 *
 * @example
 * translateWord('prices', 'zh') // '价格'
 */
export function translateWord(word: string, script: Script): string | undefined {
  const lower = word.toLowerCase();
  const singular = lower.endsWith('s') ? lower.slice(0, -1) : lower;
  const key = Object.hasOwn(lexicon, lower) ? lower : Object.hasOwn(lexicon, singular) ? singular : undefined;
  const entry = key === undefined ? undefined : lexicon[key];
  return entry?.[scriptIndex[script]];
}
