import type { OutboundHttp } from '../http/outbound';

/** What every carrier of a carrier account is built from: the account's identity, credentials and settings. */
export interface AccountCarrierOptions<Credentials, Settings> {
  providerId: number;
  /** the account's description (or its kind and id) */
  name: string;
  logoUrl: string;
  credentials: Credentials;
  settings: Settings;
  /** outbound HTTP with the private-network policy of WEBHOOK_ALLOW_PRIVATE */
  http: OutboundHttp;
  now?: () => Date;
}

/**
 * The part every account's carrier shares: its provider identity, the API base URL it calls (without a
 * trailing slash) and its clock. Each carrier kind adds its contract's operations.
 */
export abstract class AccountCarrier<Credentials, Settings> {
  readonly id: number;
  readonly name: string;
  readonly logoUrl: string;
  protected readonly base: string;
  protected readonly now: () => Date;

  protected constructor(
    protected readonly options: AccountCarrierOptions<Credentials, Settings>,
    baseUrl: string,
  ) {
    this.id = options.providerId;
    this.name = options.name;
    this.logoUrl = options.logoUrl;
    this.base = baseUrl.replace(/\/+$/, '');
    this.now = options.now ?? (() => new Date());
  }
}
