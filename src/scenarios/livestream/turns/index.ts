// The turn builders of the live-stream shop, one file per intent: for each, the viewer's danmaku (English
// or Chinese), the skills and tool calls the host needs (the gold labels), and the reply composed from the
// tool results. Replies only quote numbers that the tool results (or the viewer) contain, avoid absolute
// and efficacy claims, and stay within the on-screen length. The result shapes, the gold calls, the reply
// text helpers and the injected mistakes are files of their own; the phrase tables are data
// (fixtures/livestream/phrases.json).
export { type AfterSalesIssue, afterSalesTurn } from './after-sales.js';
export { compareTurn } from './compare.js';
export { type TrapKind, trapTurn } from './compliance-traps.js';
export { discoveryTurn, missingTurn } from './discovery.js';
export { longTurn, spamTurn } from './input-hooks.js';
export { multiTurn, type PartKind, part } from './multi-intent.js';
export { objectionTurn } from './objections.js';
export { priceTurn } from './price.js';
export { itemTurn } from './product-facts.js';
export { type PromoTopic, promoTurn } from './promotions.js';
export { purchaseTurn } from './purchase.js';
export { shippingTurn } from './shipping.js';
export { randomBody, sizeTurn } from './size.js';
export { chatTurn } from './small-talk.js';
export { stockTurn } from './stock.js';
