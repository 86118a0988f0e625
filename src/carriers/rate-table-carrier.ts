import { AccountCarrier, type AccountCarrierOptions } from './account-carrier';
import type { Quote, ShipmentSpec } from './carrier';
import { rateTableOf, rateTableQuote, type AccountRateSettings, type RateTable } from './rate-table';

/** The options of a carrier that quotes from the account's rate table and whose status queries are budgeted. */
export interface RateTableCarrierOptions<Credentials, Settings> extends AccountCarrierOptions<Credentials, Settings> {
  /** spends one of the account's lookups (status queries), or throws CarrierBusyError */
  lookupBudget?: () => Promise<void>;
}

/**
 * The part the domestic Turkish carriers without a rating operation share (Sendeo, Kolay Gelsin): the API base
 * URL from the settings or the contract's default, and quotes from the account's rate table.
 */
export abstract class RateTableCarrier<Credentials, Settings extends { base_url?: string; rates?: AccountRateSettings }> extends AccountCarrier<
  Credentials,
  Settings
> {
  readonly supportsQuotes: boolean;
  private readonly rates?: RateTable;
  declare protected readonly options: RateTableCarrierOptions<Credentials, Settings>;

  protected constructor(
    options: RateTableCarrierOptions<Credentials, Settings>,
    defaultBaseUrl: string,
    /** the service name quotes carry */
    private readonly serviceName: string,
  ) {
    super(options, options.settings.base_url ?? defaultBaseUrl);
    this.rates = options.settings.rates && rateTableOf(options.settings.rates);
    this.supportsQuotes = this.rates !== undefined;
  }

  /** From the account's rate table (the contract has no rating operation): domestic shipments up to its maximum; null otherwise. */
  async quote(spec: ShipmentSpec): Promise<Quote | null> {
    return rateTableQuote(this.rates, spec, {
      providerId: this.id,
      country: 'TR',
      currency: this.options.settings.rates?.currency,
      serviceName: this.serviceName,
    });
  }

  /** What a booking costs: the rate table's quote, or nothing when the account has no table. */
  protected async costOf(shipment: ShipmentSpec): Promise<Quote> {
    return (await this.quote(shipment)) ?? { providerId: this.id, baseCost: 0, currency: 'TRY', transitDays: 1, serviceName: this.serviceName };
  }
}
