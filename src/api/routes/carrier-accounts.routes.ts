import { z } from 'zod';
import { carrierAccountBodies, parseCarrierAccountInput } from '../../domain/carrier-account';
import { pageResponse } from '../../domain/pagination';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { CarrierAccountService } from '../../services/carrier-accounts.service';
import { CarrierAccountAnswer, toCarrierAccountResponse } from '../mappers/carrier-account.mapper';
import { envelope, operation, page, requestSchema } from '../openapi/operation';
import type { FastifyRequest } from 'fastify';
import { idParam, idParams, MAX_PROVIDER_ID, pageParams, parseId } from './params';
import { parsedBy, type RoutesPlugin } from '../validation';

const providerId = idParams(z.object({ provider_id: idParam }), 'provider_id', MAX_PROVIDER_ID);
const AccountEnvelope = envelope('CarrierAccountAnswer', CarrierAccountAnswer);
const base = { tags: ['Carrier accounts'], access: 'apiKey' } as const;

const createAccount = operation({
  ...base,
  operationId: 'createCarrierAccount',
  summary: 'Add a carrier account',
  description:
    "Your own account with a carrier: a remote consignment service (`consignment_api`), DHL Express, Sendeo or Kolay Gelsin. Credentials are encrypted at rest and never shown again. The answer's `provider_id` is what drafts use.",
  body: parsedBy(requestSchema('CarrierAccountCreate', carrierAccountBodies.create), (body) => parseCarrierAccountInput(body, 'create')),
  answers: { 201: { description: 'The account.', schema: AccountEnvelope } },
  links: {
    201: Object.fromEntries(
      ['getCarrierAccount', 'replaceCarrierAccount', 'deleteCarrierAccount'].map((id) => [id, { provider_id: '$response.body#/data/provider_id' }]),
    ),
  },
  errors: [503],
});
const listAccounts = operation({
  ...base,
  operationId: 'listCarrierAccounts',
  summary: 'Your carrier accounts',
  query: pageParams(),
  answers: { 200: { description: 'A page of accounts.', schema: envelope('CarrierAccountListAnswer', page(CarrierAccountAnswer)) } },
});
const getAccount = operation({
  ...base,
  operationId: 'getCarrierAccount',
  summary: 'A carrier account',
  params: providerId,
  answers: { 200: { description: 'The account.', schema: AccountEnvelope } },
  errors: [404],
});
const replaceAccount = operation({
  ...base,
  operationId: 'replaceCarrierAccount',
  summary: 'Replace a carrier account',
  description: 'Every field as on create; `credentials` may be left out to keep the stored ones.',
  params: providerId,
  body: parsedBy(requestSchema('CarrierAccountReplace', carrierAccountBodies.replace), (body) => parseCarrierAccountInput(body, 'replace')),
  answers: { 200: { description: 'The account.', schema: AccountEnvelope } },
  errors: [404, 503],
});
const deleteAccount = operation({
  ...base,
  operationId: 'deleteCarrierAccount',
  summary: 'Delete a carrier account',
  description: 'Consignments booked with it keep their history and labels.',
  params: providerId,
  answers: { 200: { description: 'Deleted.', schema: envelope('DeletedCarrierAccountAnswer', z.object({ provider_id: z.int() })) } },
  errors: [404],
});

/** Carrier accounts of the caller's customer: create, list, get, replace (PUT), delete. Another customer's account is "not found". */
export function carrierAccountRoutes(deps: { carrierAccounts: CarrierAccountService }): RoutesPlugin {
  return async (app) => {
    app.post('/carrier-accounts', { schema: createAccount }, async (request, reply) => {
      const account = await deps.carrierAccounts.create(request.caller, request.body);
      return reply
        .code(201)
        .send({ status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_CREATED, request.locale), data: toCarrierAccountResponse(account) });
    });

    app.get('/carrier-accounts', { schema: listAccounts }, async (request) => {
      const page = request.query;
      const { rows, total } = await deps.carrierAccounts.list(request.caller, page);
      return { status: true, message: null, data: pageResponse(rows.map(toCarrierAccountResponse), page, total) };
    });

    app.get('/carrier-accounts/:provider_id', { schema: getAccount }, async (request) => {
      const account = await deps.carrierAccounts.get(request.caller, request.params.provider_id);
      return { status: true, message: null, data: toCarrierAccountResponse(account) };
    });

    // An unknown account is 404 whatever the body: looked up before the body is checked (a bad id is 400 first).
    const accountExists = async (request: FastifyRequest) =>
      void (await deps.carrierAccounts.get(request.caller, parseId((request.params as { provider_id: string }).provider_id, 'provider_id', MAX_PROVIDER_ID)));
    app.put('/carrier-accounts/:provider_id', { schema: replaceAccount, preValidation: accountExists }, async (request) => {
      const providerId = request.params.provider_id;
      const account = await deps.carrierAccounts.replace(request.caller, providerId, request.body);
      return { status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_UPDATED, request.locale), data: toCarrierAccountResponse(account) };
    });

    app.delete('/carrier-accounts/:provider_id', { schema: deleteAccount }, async (request) => {
      const providerId = request.params.provider_id;
      await deps.carrierAccounts.remove(request.caller, providerId);
      return { status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_DELETED, request.locale), data: { provider_id: providerId } };
    });
  };
}
