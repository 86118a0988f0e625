import { z } from 'zod';
import { preferenceIssues } from '../domain/draft';
import { DomainError, type Issue } from '../domain/errors';
import { ORDER_PLATFORMS, type OrderPlatform, type OrderSourceDefaults } from '../domain/order-source';
import { processingIssues } from '../domain/processing';
import { optionIssues } from '../domain/validation';
import { importOptionsSchema, parseImportOptions } from './import-options';

/** An order source as a client sends it (POST and PUT /api/v1/order-sources), validated. */
export interface OrderSourceInput {
  platform: OrderPlatform;
  name: string;
  /** absent on a PUT that keeps the stored secret */
  secret?: string;
  process: boolean;
  status: number;
  defaults: OrderSourceDefaults;
}

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
      "the webhook signing secret: Shopify's app client secret (or the one shown under Settings → Notifications → Webhooks), WooCommerce's webhook secret. Stored encrypted, never shown again.",
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
  create: z.strictObject(fields),
  replace: z.strictObject({ ...fields, secret: fields.secret.optional().meta({ description: 'leave out to keep the stored secret' }) }),
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
  // The import options' own normalisation (absent keys dropped, nulls for defaults).
  const options = parseImportOptions({
    preset: body.platform,
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
    if (body.platform === 'woocommerce' && options.package?.weight == null) issues.push({ code: 'NOT_BLANK', field: 'package.weight' });
    issues.push(
      ...processingIssues({ consignor: options.consignor ?? {} }).filter((i) => i.field?.startsWith('consignor.') && !issues.some((j) => j.field === i.field)),
    );
  }
  if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues);
  return {
    platform: body.platform,
    name: body.name,
    ...(body.secret !== undefined && { secret: body.secret }),
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
