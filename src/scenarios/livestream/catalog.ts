// The shop's data, read from JSON (fixtures/livestream/catalog.json): products with their stock, size
// charts, shipping and after-sales terms; promotions; after-sales rules by category; provinces and the
// remote fee; rooms. The zod schema is the format's one definition; a bad file is a content error whose
// issues name the path and the rule.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadShopData, parseShopData } from './data-file.js';

const Text = z.strictObject({ en: z.string(), zh: z.string() });
const CategorySchema = z.enum(['apparel', 'beauty', 'snacks', 'appliances', 'home']);
const ChartKindSchema = z.enum(['tops', 'dress', 'bottoms', 'jeans', 'shoes']);
const ThresholdTierSchema = z.strictObject({ threshold: z.number(), discount: z.number() });

const ProductSchema = z.strictObject({
  link_id: z.number().int(),
  category: CategorySchema,
  brand: z.string(),
  title: z.string(),
  title_zh: z.string(),
  short_name: Text,
  list_price: z.number(),
  live_price: z.number(),
  product_coupon: z.strictObject({ label: z.string(), amount: z.number() }).nullable(),
  threshold_coupons: z.array(z.string()),
  multi_buy: z.string().nullable(),
  limit_per_order: z.number().int(),
  options: z.array(Text),
  sizes: z.array(z.string()),
  stock: z.array(
    z.strictObject({
      option: z.string(),
      option_zh: z.string(),
      size: z.string().nullable(),
      stock: z.number().int(),
      restock_in_days: z.number().int().optional(),
    }),
  ),
  size_chart: z
    .array(
      z.strictObject({
        size: z.string(),
        height_cm: z.string().optional(),
        weight_kg: z.string().optional(),
        chest_cm: z.number().optional(),
        waist_cm: z.number().optional(),
        hip_cm: z.number().optional(),
        length_cm: z.number().optional(),
        foot_length_mm: z.number().optional(),
      }),
    )
    .nullable(),
  size_chart_kind: ChartKindSchema.nullable(),
  specs: z.record(z.string(), Text),
  suits: Text,
  tags: z.array(z.string()),
  shipping: z.strictObject({
    ship_from: Text,
    carrier: Text,
    cutoff: z.string(),
    eta_days_min: z.number().int(),
    eta_days_max: z.number().int(),
    free_shipping: z.boolean(),
  }),
  after_sales: z.strictObject({
    no_reason_return_days: z.number().int(),
    conditions: Text,
    return_shipping_insurance: z.boolean(),
    warranty_months: z.number().int(),
  }),
});

const RoomSchema = z.strictObject({
  room_id: z.string(),
  title: z.string(),
  host: z.string(),
  platform: z.string(),
  links: z.array(z.number().int()),
  lucky_draw_prize: z.tuple([z.string(), z.string()]),
  lucky_draw_keyword: z.string(),
});

const byCategory = <T extends z.ZodType>(schema: T) =>
  z.strictObject({
    apparel: schema,
    beauty: schema,
    snacks: schema,
    appliances: schema,
    home: schema,
  });

/**
 * The schema of the live-stream shop's catalog.json.
 *
 * @example
 * const catalog = ShopCatalogSchema.parse(JSON.parse(text)); // loadShopCatalog(file) reads a file
 */
export const ShopCatalogSchema = z.strictObject({
  id: z.string(),
  description: z.string(),
  currency: z.string(),
  /** The seed the stock levels were once drawn with (kept for provenance). */
  seed: z.string(),
  promotions: z.strictObject({
    threshold_coupons: byCategory(z.array(z.string())),
    threshold_tiers: byCategory(z.array(ThresholdTierSchema)),
    multi_buy: z.strictObject({
      category: CategorySchema,
      label: z.string(),
      min_quantity: z.number().int(),
      percent_off: z.number(),
    }),
    price_protection_days: z.number().int(),
    rules: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
  after_sales: byCategory(
    z.strictObject({
      conditions: z.tuple([z.string(), z.string()]),
      insurance: z.boolean(),
      exchange: z.tuple([z.string(), z.string()]).optional(),
      quality: z.tuple([z.string(), z.string()]),
    }),
  ),
  damage_report_hours: z.number().int(),
  provinces: z.array(
    z.strictObject({
      en: z.string(),
      zh: z.string(),
      zone: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    }),
  ),
  remote_fee: z.number(),
  rooms: z.array(RoomSchema).min(1),
  products: z.array(ProductSchema).min(1),
});

/**
 * The live-stream shop's catalog as `parseShopCatalog` and `loadShopCatalog` return it: rooms, products,
 * promotions, after-sales rules.
 */
export type ShopCatalog = z.output<typeof ShopCatalogSchema>;
/**
 * One product of the catalog: its link number, titles, prices, coupons, options and sizes, stock and size
 * chart.
 */
export type Product = ShopCatalog['products'][number];
export type StockRow = Product['stock'][number];
export type SizeChartRow = NonNullable<Product['size_chart']>[number];
export type Category = z.output<typeof CategorySchema>;
export type ChartKind = z.output<typeof ChartKindSchema>;
export type ThresholdTier = z.output<typeof ThresholdTierSchema>;
export type RoomSeed = ShopCatalog['rooms'][number];
export type Province = ShopCatalog['provinces'][number];
/** An English / Chinese text pair. */
export type Bi = readonly [en: string, zh: string];

/**
 * Checks catalog data; a bad catalog throws an error listing every problem with its path.
 *
 * @example
 * const catalog = parseShopCatalog(JSON.parse(text), 'catalog.json');
 */
export function parseShopCatalog(input: unknown, source = 'catalog'): ShopCatalog {
  return parseShopData(ShopCatalogSchema, input, source, 'shop catalog');
}

/**
 * Reads a catalog file.
 *
 * @example
 * const catalog = loadShopCatalog('fixtures/livestream/catalog.json');
 */
export function loadShopCatalog(file: string | URL): ShopCatalog {
  return loadShopData(file, 'shop catalog', parseShopCatalog);
}

/** Where the bundled catalog lies, from this module in the source tree or in a build. */
const bundledLocations = [
  new URL('../../../fixtures/livestream/catalog.json', import.meta.url),
  new URL('../../fixtures/livestream/catalog.json', import.meta.url),
  new URL('../fixtures/livestream/catalog.json', import.meta.url),
];

let bundled: ShopCatalog | undefined;

/**
 * The catalog of the bundled fixture (read once).
 *
 * @example
 * bundledShopCatalog().products.length // 45
 */
export function bundledShopCatalog(): ShopCatalog {
  if (bundled) return bundled;
  for (const location of bundledLocations) {
    try {
      readFileSync(location);
    } catch {
      continue;
    }
    bundled = loadShopCatalog(location);
    return bundled;
  }
  throw new HarnessAugmentError(
    'the bundled shop catalog (fixtures/livestream/catalog.json) is not in this installation; pass a catalog',
    { kind: 'usage' },
  );
}
