import type { FastifyPluginAsync } from 'fastify';
import { parseCarrierAccountInput } from '../../domain/carrier-account';
import { pageResponse, parsePageRequest } from '../../domain/pagination';
import { SUCCESS_MESSAGES, translate } from '../../i18n/messages';
import type { CarrierAccountService } from '../../services/carrier-accounts.service';
import { toCarrierAccountResponse } from '../mappers/carrier-account.mapper';
import { parseId } from './params';

type AccountParams = { Params: { provider_id: string } };

/** Carrier accounts of the caller's customer: create, list, get, replace (PUT), delete. Another customer's account is "not found". */
export function carrierAccountRoutes(deps: { carrierAccounts: CarrierAccountService }): FastifyPluginAsync {
  return async (app) => {
    app.post('/carrier-accounts', async (request, reply) => {
      const account = await deps.carrierAccounts.create(request.caller, parseCarrierAccountInput(request.body, 'create'));
      return reply.code(201).send({ status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_CREATED, request.locale), data: toCarrierAccountResponse(account) });
    });

    app.get('/carrier-accounts', async (request) => {
      const page = parsePageRequest(request.query);
      const { rows, total } = await deps.carrierAccounts.list(request.caller, page);
      return { status: true, message: null, data: pageResponse(rows.map(toCarrierAccountResponse), page, total) };
    });

    app.get<AccountParams>('/carrier-accounts/:provider_id', async (request) => {
      const account = await deps.carrierAccounts.get(request.caller, parseId(request.params.provider_id, 'provider_id'));
      return { status: true, message: null, data: toCarrierAccountResponse(account) };
    });

    app.put<AccountParams>('/carrier-accounts/:provider_id', async (request) => {
      const providerId = parseId(request.params.provider_id, 'provider_id');
      await deps.carrierAccounts.get(request.caller, providerId);
      const account = await deps.carrierAccounts.replace(request.caller, providerId, parseCarrierAccountInput(request.body, 'replace'));
      return { status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_UPDATED, request.locale), data: toCarrierAccountResponse(account) };
    });

    app.delete<AccountParams>('/carrier-accounts/:provider_id', async (request) => {
      const providerId = parseId(request.params.provider_id, 'provider_id');
      await deps.carrierAccounts.remove(request.caller, providerId);
      return { status: true, message: translate(SUCCESS_MESSAGES.CARRIER_ACCOUNT_DELETED, request.locale), data: { provider_id: providerId } };
    });
  };
}
