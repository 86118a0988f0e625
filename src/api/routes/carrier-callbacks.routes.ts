import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { STATUS_WEBHOOK_HEADER } from '../../carriers/consignment-api';
import { shipmentIdsInWebhook } from '../../carriers/kolay-gelsin';
import { DomainError } from '../../domain/errors';
import { carrierEventOf, TRACKING_EVENTS } from '../../domain/tracking';
import { parseOrRefuse } from '../../domain/validation';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { CarrierAccountService } from '../../services/carrier-accounts.service';
import type { ConsignmentService } from '../../services/consignments.service';
import { envelope, operation, requestSchema } from '../openapi/operation';
import { idParam, providerIdOf, providerIdParams } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';

/**
 * The secret a status webhook delivery carries: our header (remote consignment services), Kolay Gelsin's
 * hash header, or the password of Basic auth (the two ways its portal offers).
 */
function webhookSecret(headers: Record<string, string | string[] | undefined>): string | undefined {
  const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.length > 0 && v.length <= 1024 ? v : undefined);
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(one(headers.authorization) ?? '')?.[1];
  const password = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':');
  return one(headers[STATUS_WEBHOOK_HEADER.toLowerCase()]) ?? one(headers.hash) ?? (password || undefined);
}

/** The identity a remote's status webhook may carry: the contract does not fix the body, so look where ours puts it. */
function namesIn(body: unknown): { trackingCode?: string; reference?: string; statusName?: string } {
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 255 && !v.includes('\0') ? v : undefined);
  const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const data = (o.data && typeof o.data === 'object' ? o.data : o) as Record<string, unknown>;
  return { trackingCode: text(data.barcode), reference: text(data.reference_no), statusName: text(data.status_name) };
}

const pushBody = z.object({
  events: z
    .array(
      z.object({
        tracking_code: z.string().trim().min(1).max(100),
        event_id: z.string().trim().min(1).max(100),
        event: z.enum(TRACKING_EVENTS),
        occurred_at: z.iso.datetime({ offset: true }).optional(),
        location: z.string().trim().max(255).nullish(),
        message: z.string().trim().max(1000).nullish(),
      }),
    )
    .min(1)
    .max(100),
});

requestSchema('CarrierEventPush', pushBody, { description: 'Up to 100 tracking events; each is applied once (by `event_id`).' });
const callbacks = { tags: ['Carrier callbacks'] } as const;

const statusUpdates = operation({
  ...callbacks,
  operationId: 'receiveAccountStatusWebhook',
  summary: "A carrier account's status webhook",
  description:
    "Called by a remote consignment service or Kolay Gelsin when shipments of the account change; authenticated by the secret registered with it. The consignments' workflows then ask the carrier for the status.",
  access: 'statusWebhookSecret',
  // Neither part is refused: a path that names no account, like a wrong secret, is 401; the body is the remote's.
  params: parsedBy(z.object({ provider_id: idParam }), (params) => ({ provider_id: providerIdOf(params.provider_id) })),
  bodyOptional: true,
  body: parsedBy(
    requestSchema('StatusWebhookBody', z.record(z.string(), z.unknown()), {
      description: "The remote's notice; its shape is the remote's (ours names `data.barcode`, Kolay Gelsin names its shipments).",
    }),
    (body): unknown => body,
  ),
  answers: {
    202: {
      description: 'Accepted: the consignments it named.',
      schema: envelope('StatusWebhookAnswer', z.object({ consignment: z.int().nullable(), consignments: z.array(z.int()) })),
    },
  },
});
const pushEvents = operation({
  ...callbacks,
  operationId: 'pushCarrierEvents',
  summary: 'A carrier pushes tracking events',
  description: "Authenticated by the carrier's own bearer token (CARRIER_PUSH_TOKENS), not an API key. Unknown tracking codes are listed, not refused.",
  access: 'carrierToken',
  // The carrier's token is checked before these (a wrong token is 401 whatever the body).
  params: parsedBy(providerIdParams, (params) => ({ id: providerIdOf(params.id)! })),
  body: parsedBy(pushBody, (body) => parseOrRefuse(pushBody, body ?? {}, (path) => path.join('.') || 'events')),
  answers: {
    202: {
      description: 'Accepted.',
      schema: envelope('CarrierEventsAnswer', z.object({ accepted: z.int().min(0), unknown_tracking_codes: z.array(z.string()) })),
    },
  },
});
const digest = (value: string) => createHash('sha256').update(value).digest();

/** preValidation of the event push: the bearer token must be the one of the provider the path names. */
function pushTokenCheck(pushTokens: Map<number, string>) {
  return async (request: FastifyRequest) => {
    const providerId = providerIdOf((request.params as { id: string }).id);
    const expected = providerId === undefined ? undefined : pushTokens.get(providerId);
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!expected || !given || !timingSafeEqual(digest(expected), digest(given))) throw new DomainError('INVALID_CARRIER_TOKEN');
  };
}

/**
 * Carriers calling us (no customer API key):
 * - `POST /api/v1/carrier-accounts/{provider_id}/status-updates`: a carrier account's status webhook, authenticated
 *   by the secret registered with the remote;
 * - `POST /api/v1/providers/{id}/events`: a carrier pushes tracking events, authenticated with its own bearer
 *   token (CARRIER_PUSH_TOKENS). Each event reaches its consignment's workflow by the same path as sandbox events.
 */
export function carrierCallbackRoutes(deps: {
  consignments: ConsignmentService;
  pushTokens: Map<number, string>;
  carrierAccounts?: CarrierAccountService;
}): RoutesPlugin {
  return async (app) => {
    /**
     * A remote consignment service's status webhook for one carrier account: authenticated by the secret
     * header registered with it. It only says that something changed; the consignment's workflow then asks
     * the remote by lookup (the authoritative status).
     */
    app.post('/carrier-accounts/:provider_id/status-updates', { schema: statusUpdates }, async (request, reply) => {
      const providerId = request.params.provider_id;
      const account = providerId === undefined ? undefined : await deps.carrierAccounts?.verifyStatusWebhook(providerId, webhookSecret(request.headers));
      if (!account) throw new DomainError('INVALID_CARRIER_TOKEN');
      // A Kolay Gelsin delivery names its shipments (tracking codes); a remote consignment service names one consignment.
      const named = account.carrier === 'kolay_gelsin' ? shipmentIdsInWebhook(request.body).map((trackingCode) => ({ trackingCode })) : [namesIn(request.body)];
      const consignments: number[] = [];
      for (const names of named) {
        const target = await deps.consignments.carrierChanged(account, names);
        if (target) consignments.push(target.consignment);
      }
      return reply.code(202).send({
        status: true,
        message: translate(SUCCESS_MESSAGES.EVENTS_ACCEPTED, request.locale),
        data: { consignment: consignments[0] ?? null, consignments },
      });
    });

    app.post('/providers/:id/events', { schema: pushEvents, preValidation: pushTokenCheck(deps.pushTokens) }, async (request, reply) => {
      const providerId = request.params.id;
      const push = request.body;
      const unknown: string[] = [];
      for (const e of push.events) {
        const target = await deps.consignments.ingestCarrierEvent(
          providerId,
          e.tracking_code,
          carrierEventOf(providerId, { eventId: e.event_id, event: e.event, occurredAt: e.occurred_at, location: e.location, message: e.message }),
        );
        if (!target) unknown.push(e.tracking_code);
      }
      return reply.code(202).send({
        status: true,
        message: translate(SUCCESS_MESSAGES.EVENTS_ACCEPTED, request.locale),
        data: { accepted: push.events.length - unknown.length, unknown_tracking_codes: unknown },
      });
    });
  };
}
