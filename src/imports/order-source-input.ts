import { z } from 'zod';
import { MARKETPLACE_CREDENTIALS } from '../domain/carrier-account';
import { preferenceIssues } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';
import {
  DEFAULT_POLL_INTERVAL_SECONDS,
  isMarketplace,
  ORDER_PLATFORMS,
  type Marketplace,
  type MarketplaceSettings,
  type OrderPlatform,
  type OrderSourceDefaults,
} from '../domain/order-source';
import { processingIssues } from '../domain/processing';
import { optionIssues } from '../domain/validation';
import { importOptionsSchema, parseImportOptions } from './import-options';

/** An order source as a client sends it (POST and PUT /api/v1/order-sources), validated. */
export interface OrderSourceInput {
  platform: OrderPlatform;
  name: string;
  /** a shop's webhook signing secret; absent on a PUT that keeps the stored secret, and for marketplaces (we generate theirs) */
  secret?: string;
  /** a marketplace's API credentials; absent on a PUT that keeps the stored ones, and for shops */
  credentials?: Record<string, string>;
  /** a marketplace's connection settings and poll interval (empty for shops) */
  settings: MarketplaceSettings;
  process: boolean;
  status: number;
  defaults: OrderSourceDefaults;
}

/** Our provider ids → the marketplace's codes of those carriers (its cargo company short names). */
const carrierCodes = () =>
  z
    .record(z.string().regex(/^\d{1,9}$/), z.string().regex(/^[A-Z0-9]{2,10}$/))
    .refine((m) => Object.keys(m).length <= 50, { params: { code: 'TOO_MANY_ENTRIES', textParams: { max: 50 } } })
    .optional()
    .meta({
      description: 'the marketplace\'s short name of each carrier you book with, by provider id, e.g. {"1001": "YK"} (default: from the carrier\'s kind)',
    });

const apiUrl = () => z.url({ protocol: /^https?$/ }).max(2048);
const pollInterval = () =>
  z
    .int()
    .min(60)
    .max(86_400)
    .meta({ description: `seconds between two pulls (default ${DEFAULT_POLL_INTERVAL_SECONDS}); a webhook ping pulls at once` });

/** Each marketplace's API credentials (sealed, never shown) and settings. */
const MARKETPLACE_FIELDS: Record<Marketplace, { credentials: z.ZodType; settings: z.ZodType }> = {
  trendyol: {
    credentials: MARKETPLACE_CREDENTIALS.trendyol,
    settings: z.strictObject({
      base_url: apiUrl().optional().meta({ description: 'default https://apigw.trendyol.com; stage https://stageapigw.trendyol.com' }),
      integrator_name: z
        .string()
        .regex(/^[A-Za-z0-9]{1,30}$/)
        .optional()
        .meta({ description: "the User-Agent's integrator name, `<seller_id> - <name>` (default SelfIntegration)" }),
      poll_interval: pollInterval().optional(),
      register_webhook: z.boolean().optional().meta({ description: 'register our webhook at Trendyol (default true)' }),
    }),
  },
  hepsiburada: {
    credentials: MARKETPLACE_CREDENTIALS.hepsiburada,
    settings: z.strictObject({
      base_url: apiUrl().optional().meta({ description: 'default https://oms-external.hepsiburada.com; test https://oms-external-sit.hepsiburada.com' }),
      user_agent: z.string().trim().min(1).max(100).meta({ description: 'the User-Agent Hepsiburada requires: your integrator (developer) user name' }),
      carrier_codes: carrierCodes(),
      tracking_phone_number: z
        .string()
        .trim()
        .regex(/^\+?[0-9 ()-]{7,20}$/)
        .optional()
        .meta({ description: "the carrier's customer phone written back with a tracking number, for carriers Hepsiburada's table lacks" }),
      poll_interval: pollInterval().optional(),
    }),
  },
};

/**
 * The body of an order source. The draft defaults are the CSV import options themselves (the same schemas:
 * consignor, preference, provider_id, address_resolver_type, package), so a source refuses what an import refuses.
 */
const fields = {
  platform: z.enum(ORDER_PLATFORMS).meta({ description: 'the shop platform that delivers the orders' }),
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .meta({ description: 'your name for this shop connection', examples: ['Anadolu Butik (Shopify)'] }),
  secret: z.string().min(8).max(512).meta({
    description:
      "shops: the webhook signing secret: Shopify's app client secret (or the one shown under Settings → Notifications → Webhooks), WooCommerce's webhook secret. Stored encrypted, never shown again.",
  }),
  credentials: z.record(z.string(), z.unknown()).meta({
    description:
      'marketplaces: the seller API credentials (trendyol: seller_id, api_key, api_secret; hepsiburada: merchant_id, service_key). Stored encrypted, never shown again.',
  }),
  settings: z.record(z.string(), z.unknown()).meta({
    description:
      'marketplaces: trendyol: base_url, integrator_name, poll_interval, register_webhook; hepsiburada: base_url, user_agent (required), poll_interval',
  }),
  process: importOptionsSchema.shape.process.meta({ description: 'also process every draft (carrier booking and label), as imports can' }),
  status: z.literal([0, 1]).nullish().meta({ description: '1 active (default), 0 disabled: its delivery URL answers 404' }),
  consignor: importOptionsSchema.shape.consignor.meta({ description: 'the sender of every order (your warehouse); required' }),
  preference: importOptionsSchema.shape.preference,
  provider_id: importOptionsSchema.shape.provider_id,
  address_resolver_type: importOptionsSchema.shape.address_resolver_type,
  package: importOptionsSchema.shape.package.meta({
    description: 'the package each order becomes: its weight is used when the order carries none (WooCommerce never does), its sizes always',
  }),
};

export const orderSourceBodies = {
  create: z.strictObject({ ...fields, secret: fields.secret.optional(), credentials: fields.credentials.optional(), settings: fields.settings.optional() }),
  replace: z.strictObject({
    ...fields,
    secret: fields.secret.optional().meta({ description: 'leave out to keep the stored secret' }),
    credentials: fields.credentials.optional().meta({ description: 'leave out to keep the stored credentials' }),
    settings: fields.settings.optional(),
  }),
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every problem at once, with its field path (VALIDATION_FAILED). */
export function parseOrderSourceInput(raw: unknown, mode: 'create' | 'replace'): OrderSourceInput {
  if (!isObject(raw)) throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  const result = orderSourceBodies[mode].safeParse(raw, { reportInput: true });
  const issues: Issue[] = result.success ? [] : optionIssues(result.error.issues);
  issues.push(...preferenceIssues(raw));
  if (!result.success || issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
  const body = result.data;
  const connection = connectionOf(body, mode, issues);
  // The import options' own normalisation (absent keys dropped, nulls for defaults).
  const options = parseImportOptions({
    // A shop's orders are mapped by its CSV preset; a marketplace's packages by their own mapping (the generic defaults).
    preset: isMarketplace(body.platform) ? 'generic' : body.platform,
    process: body.process,
    consignor: body.consignor,
    preference: body.preference,
    provider_id: body.provider_id,
    address_resolver_type: body.address_resolver_type,
    package: body.package,
  });
  // Orders carry no sender: the source gives it, as an import's options do for a file without one.
  if (!options.consignor?.name) issues.push({ code: 'NOT_BLANK', field: 'consignor.name' });
  if (options.process) {
    // What every order would otherwise lack alike (an import's checkOptions asks the same).
    if (options.preference == null && options.provider_id == null) issues.push({ code: 'NOT_BLANK', field: 'preference' });
    if ((body.platform === 'woocommerce' || isMarketplace(body.platform)) && options.package?.weight == null)
      issues.push({ code: 'NOT_BLANK', field: 'package.weight' });
    issues.push(
      ...processingIssues({ consignor: options.consignor ?? {} }).filter((i) => i.field?.startsWith('consignor.') && !issues.some((j) => j.field === i.field)),
    );
  }
  if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
  return {
    platform: body.platform,
    name: body.name,
    ...(body.secret !== undefined && { secret: body.secret }),
    ...(connection.credentials && { credentials: connection.credentials }),
    settings: connection.settings,
    process: options.process,
    status: body.status ?? 1,
    defaults: {
      preference: options.preference,
      provider_id: options.provider_id,
      address_resolver_type: options.address_resolver_type,
      consignor: options.consignor,
      package: options.package,
    },
  };
}

/**
 * What connects the source: a shop's signing secret (required on create), or a marketplace's credentials (required
 * on create) and settings, checked by the marketplace's schema; a field of the other kind is refused.
 */
function connectionOf(
  body: { platform: OrderPlatform; secret?: string; credentials?: Record<string, unknown>; settings?: Record<string, unknown> },
  mode: 'create' | 'replace',
  issues: Issue[],
): { credentials?: Record<string, string>; settings: MarketplaceSettings } {
  if (!isMarketplace(body.platform)) {
    if (mode === 'create' && body.secret === undefined) issues.push({ code: 'NOT_BLANK', field: 'secret' });
    for (const field of ['credentials', 'settings'] as const) if (body[field] !== undefined) issues.push({ code: 'ORDER_FIELD_MARKETPLACE_ONLY', field });
    return { settings: {} };
  }
  if (body.secret !== undefined) issues.push({ code: 'ORDER_FIELD_SHOP_ONLY', field: 'secret' });
  const schemas = MARKETPLACE_FIELDS[body.platform];
  const parsed = <T>(schema: z.ZodType, value: unknown, prefix: string): T | undefined => {
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) return result.data as T;
    issues.push(...optionIssues(result.error.issues).map((i) => ({ ...i, field: [prefix, i.field].filter(Boolean).join('.') })));
    return undefined;
  };
  if (mode === 'create' && body.credentials === undefined) issues.push({ code: 'NOT_BLANK', field: 'credentials' });
  const credentials = body.credentials === undefined ? undefined : parsed<Record<string, string>>(schemas.credentials, body.credentials, 'credentials');
  // What the service keeps in the settings itself (the marketplace carrier's account) may come back from a GET: ignored.
  const { carrier_provider_id: _provider, webhook_id: _webhook, ...sent } = body.settings ?? {};
  const settings = parsed<MarketplaceSettings>(schemas.settings, sent, 'settings') ?? {};
  return { ...(credentials && { credentials }), settings };
}
