import { z } from 'zod';
import { DomainError, type Issue } from './errors';
import { LABEL_FORMATS } from './label';
import { EXPECTED_INTEGER, parseOrRefuse } from './validation';

/**
 * Carrier accounts: a customer's own credentials for a carrier kind, with a provider id of their own. The
 * kinds this service can connect; each declares the credentials and settings it takes.
 */
export const CARRIER_KINDS = [
  'consignment_api',
  'dhl_express',
  'sendeo',
  'kolay_gelsin',
  'surat',
  'yurtici',
  'aras',
  'mng',
  'hepsijet',
  'trendyol',
  'hepsiburada',
] as const;
export type CarrierKind = (typeof CARRIER_KINDS)[number];

export const CARRIER_ACCOUNT_STATUS = { DISABLED: 0, ACTIVE: 1 } as const;

const INT32_MAX = 2_147_483_647;
const integer = () => z.int({ error: (iss) => (iss.code === 'invalid_type' ? EXPECTED_INTEGER : undefined) }).max(INT32_MAX);

/** A carrier's service URL in an account's settings (its production one by default; its test host, or a test double). */
const carrierServiceUrl = () =>
  z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional();

/** A carrier account's own price list, for carriers without a rating operation: bands by chargeable weight (kg or desi, whichever is greater). */
const rateTable = z.strictObject({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  transit_days: integer().min(0).max(60).optional(),
  bands: z
    .array(z.strictObject({ up_to: z.number().positive().max(100_000), price: z.number().nonnegative().max(1_000_000) }))
    .min(1)
    .max(100)
    .refine((bands) => bands.every((b, i) => i === 0 || b.up_to > bands[i - 1].up_to), { params: { code: 'NOT_ASCENDING' } }),
  per_unit_above: z.number().nonnegative().max(1_000_000).optional(),
  max: z.number().positive().max(100_000).optional(),
});

const KINDS = {
  /** A remote shipping service that speaks this very API: its base URL and an API key of a customer there. */
  consignment_api: {
    credentials: z.strictObject({
      base_url: z.url({ protocol: /^https?$/ }).max(2048),
      api_key: z.string().trim().min(1).max(512),
    }),
    settings: z
      .strictObject({
        /** the remote's own carrier (default: the draft's preference) */
        provider_id: integer().positive().optional(),
        preference: z.literal([0, 1, 2]).optional(),
        language: z.enum(['tr', 'en']).optional(),
        /** remote status number → our status number, for remotes whose status names differ from ours */
        status_map: z
          .record(z.string().regex(/^\d{1,9}$/), integer().nonnegative())
          .refine((m) => Object.keys(m).length <= 100, { params: { code: 'TOO_MANY_ENTRIES', textParams: { max: 100 } } })
          .optional(),
      })
      // As in drafts: a specific preference names its provider.
      .refine((s) => s.preference !== 0 || s.provider_id !== undefined, { path: ['provider_id'], params: { code: 'PREFERENCE_RULE' } }),
  },
  /** DHL Express through the MyDHL API: the API user of the account's MyDHL developer app, and the DHL account number. */
  dhl_express: {
    credentials: z.strictObject({
      username: z.string().trim().min(1).max(100),
      password: z.string().min(1).max(200),
      account_number: z
        .string()
        .trim()
        .regex(/^[0-9A-Za-z]{1,12}$/),
    }),
    settings: z.strictObject({
      /** the carrier's test (default) or production endpoint, or a test double */
      base_url: carrierServiceUrl(),
      /** MyDHL product codes when the account needs other than EXPRESS DOMESTIC (N) / EXPRESS WORLDWIDE (P) */
      product_domestic: z
        .string()
        .trim()
        .regex(/^[0-9A-Z]{1,6}$/)
        .optional(),
      product_international: z
        .string()
        .trim()
        .regex(/^[0-9A-Z]{1,6}$/)
        .optional(),
      /** the format DHL makes labels in for this account (default: the one processing asks for) */
      label_format: z.enum(LABEL_FORMATS).optional(),
      /** Paperless Trade (DHL service WY, enabled for the account by DHL): the proforma invoice goes with the booking */
      paperless_trade: z.boolean().optional(),
      /** IANA time zone the account ships from (plannedShippingDateAndTime is local): default the shipper country's zone */
      time_zone: z
        .string()
        .trim()
        .max(64)
        .refine(
          (zone) => {
            try {
              new Intl.DateTimeFormat('en-US', { timeZone: zone });
              return true;
            } catch {
              return false;
            }
          },
          { params: { code: 'INVALID_CHOICE' } },
        )
        .optional(),
      /** a DHL courier collects each shipment booked (default: none, the consignor hands parcels to DHL) */
      pickup: z
        .strictObject({
          requested: z.boolean(),
          /** the latest time the premises can hand over parcels, HH:MM local */
          close_time: z
            .string()
            .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/)
            .optional(),
          /** where the courier picks up, e.g. "reception" */
          location: z.string().trim().min(1).max(80).optional(),
        })
        .optional(),
    }),
  },
  /** Sendeo's current API: the customer code and password its LoginAES operation takes (the API user made in Şube Sendeo). */
  sendeo: {
    credentials: z.strictObject({
      customer_code: z.string().trim().min(1).max(100),
      password: z.string().min(1).max(200),
    }),
    settings: z.strictObject({
      /** Sendeo's API (default https://api.sendeo.com.tr), its test host, or a test double */
      base_url: carrierServiceUrl(),
      /**
       * SETDELIVERY's DeliveryType: 1 from your location to your customer (default), 2 from your customer to your location, 3 from a supplier to your
       * customer
       */
      delivery_type: z.literal([1, 2, 3]).optional(),
      /** SETDELIVERY's ServiceType: 1 standard (default), 2 express */
      service_type: z.literal([1, 2]).optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /** Kolay Gelsin's older integration API: the token, customer id and sender address id Kolay Gelsin hands out. */
  kolay_gelsin: {
    credentials: z.strictObject({
      token: z.string().trim().min(1).max(2048),
      customer_id: integer().positive(),
      address_id: integer().positive(),
      /** what the account's webhook in Kolay Gelsin's portal sends: the Basic auth password or the hash value */
      webhook_secret: z.string().min(16).max(200).optional(),
    }),
    settings: z.strictObject({
      base_url: carrierServiceUrl(),
      paying_party: z.literal([1, 2]).optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /** Sürat Kargo's SOAP service: the account code and the two passwords its operations take. */
  surat: {
    credentials: z.strictObject({
      /** Cari Kodu */
      account_code: z
        .string()
        .trim()
        .regex(/^\d{1,20}$/),
      /** Cari Şifresi: booking and withdrawing */
      password: z.string().min(1).max(200),
      /** Web Servis Şifresi (set on Sürat's e-kargo site): tracking and look-ups */
      web_service_password: z.string().min(1).max(200),
    }),
    settings: z.strictObject({
      /** Sürat's service (default https://webservices.suratkargo.com.tr/services.asmx), its test host, or a test double */
      base_url: carrierServiceUrl(),
      /** OdemeTipi: 1 the sender pays (default), 2 the receiver pays */
      payment_type: z.literal([1, 2]).optional(),
      /** KargoTuru: 1 document, 2 small parcel, 3 parcel (default) */
      cargo_type: z.literal([1, 2, 3]).optional(),
      /** the account is Sürat's cash-on-delivery account: only such an account books cash on delivery */
      cash_on_delivery: z.boolean().optional(),
      /** a Sürat courier collects each shipment (AdrestenAlim); default: handed in at a branch */
      pickup: z.boolean().optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /** Yurtiçi Kargo's SOAP service: its web service user (tied to one payment type) and password. */
  yurtici: {
    credentials: z.strictObject({
      user_name: z.string().trim().min(1).max(100),
      password: z.string().min(1).max(200),
    }),
    settings: z.strictObject({
      /** Yurtiçi's service (default https://ws.yurticikargo.com/KOPSWebServices/ShippingOrderDispatcherServices), its test host, or a test double */
      base_url: carrierServiceUrl(),
      /** Yurtiçi's messages in Turkish (default) or English */
      language: z.enum(['TR', 'EN']).optional(),
      /** the collection on delivery the user's contract allows (a COD user) */
      cash_on_delivery: z
        .array(z.enum(['cash', 'card']))
        .max(2)
        .optional(),
      /** send the packages' desi and kg (only users Yurtiçi authorised for it may) */
      send_measurements: z.boolean().optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /** Aras Kargo's two SOAP services: the order service's user and password, the query service's login. */
  aras: {
    credentials: z.strictObject({
      user_name: z.string().trim().min(1).max(100),
      password: z.string().min(1).max(200),
      /** the query service's CustomerCode */
      customer_code: z.string().trim().min(1).max(32),
      /** the query service's own user and password, when Aras gave others than the order service's */
      query_user_name: z.string().trim().min(1).max(100).optional(),
      query_password: z.string().min(1).max(200).optional(),
    }),
    settings: z.strictObject({
      /** the order service (arascargoservice.asmx; default production), its test host, or a test double */
      base_url: carrierServiceUrl(),
      /** the query service (ArasCargoIntegrationService.svc; default production) */
      query_url: carrierServiceUrl(),
      /** PayorTypeCode: 1 the sender pays (default), 2 the receiver pays */
      payor_type: z.literal([1, 2]).optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /**
   * MNG Kargo (DHL eCommerce Türkiye) through IBM API Connect: the app's client id and secret (X-IBM-Client-Id and -Secret,
   * subscribed to the Identity, Standard Command, Standard Query, Barcode Command, Plus Command and CBS Info APIs) and the
   * merchant's MNG customer number and password (the JWT's login).
   */
  mng: {
    credentials: z.strictObject({
      client_id: z.string().trim().min(1).max(200),
      client_secret: z.string().min(1).max(200),
      customer_number: z
        .string()
        .trim()
        .regex(/^\d{1,20}$/),
      password: z.string().min(1).max(200),
    }),
    settings: z.strictObject({
      /** MNG's API (default https://api.mngkargo.com.tr), its test host https://testapi.mngkargo.com.tr, or a test double */
      base_url: carrierServiceUrl(),
      /** createOrder's paymentType: 1 the sender pays (default), 2 the receiver pays */
      payment_type: z.literal([1, 2]).optional(),
      /** the e-mail sent as the recipient's when a consignee has none (MNG refuses an order without one) */
      default_email: z
        .string()
        .trim()
        .max(254)
        .regex(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/)
        .optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /**
   * HepsiJet's integration API: the user and password its getToken takes (and the apikey header, where HepsiJet gave
   * one); the company, sender address and cross-dock codes HepsiJet assigns to the account are settings.
   */
  hepsijet: {
    credentials: z.strictObject({
      user_name: z.string().trim().min(1).max(100),
      password: z.string().min(1).max(200),
      /** the `apikey` header value, for accounts HepsiJet gave one */
      api_key: z.string().trim().min(1).max(200).optional(),
    }),
    settings: z.strictObject({
      /** HepsiJet's API (default https://integration.hepsijet.com), its test host https://integration-apitest.hepsijet.com, or a test double */
      base_url: carrierServiceUrl(),
      /** company.name, as HepsiJet set it for the account */
      company_name: z.string().trim().min(1).max(100),
      /** company.abbreviationCode */
      company_code: z.string().trim().min(1).max(50),
      /** delivery.senderAddress.companyAddressId: the sender address HepsiJet registered for the account */
      sender_address_id: z.string().trim().min(1).max(100),
      /** currentXDock.abbreviationCode: the cross-dock tied to the sender address */
      xdock_code: z.string().trim().min(1).max(100),
      /** delivery.product.productCode (default HX_STD, standard delivery) */
      product_code: z.enum(['HX_STD', 'HX_SD', 'HX_ND', 'HX_EX', 'HX_VIP1', 'HX_VIP2', 'HX_RND', 'HX_CC', '2HOURS']).optional(),
      /** the account's prices (no rating operation in the contract) */
      rates: rateTable.optional(),
    }),
  },
  /**
   * Trendyol's own carriers ("Trendyol pays" packages): made with a Trendyol order source, from its seller API key; books
   * nothing, takes the package's common label (docs/order-feeds.md, "When the marketplace ships").
   */
  trendyol: {
    credentials: z.strictObject({
      seller_id: z
        .string()
        .trim()
        .regex(/^\d{1,20}$/),
      api_key: z.string().trim().min(1).max(200),
      api_secret: z.string().trim().min(1).max(200),
    }),
    settings: z.strictObject({
      base_url: carrierServiceUrl(),
      integrator_name: z
        .string()
        .regex(/^[A-Za-z0-9]{1,30}$/)
        .optional(),
    }),
  },
  /** Hepsiburada's own carriers: made with a Hepsiburada order source, from its merchant id and service key. */
  hepsiburada: {
    credentials: z.strictObject({
      merchant_id: z.string().trim().min(1).max(100),
      service_key: z.string().trim().min(1).max(200),
    }),
    settings: z.strictObject({
      base_url: carrierServiceUrl(),
      user_agent: z.string().trim().min(1).max(100),
    }),
  },
} satisfies Record<CarrierKind, { credentials: z.ZodType; settings: z.ZodType }>;

const accountFields = {
  carrier: z.enum(CARRIER_KINDS),
  description: z.string().trim().max(255).optional(),
  credentials: z.record(z.string(), z.unknown()),
  settings: z.record(z.string(), z.unknown()).optional(),
  status: z.literal([CARRIER_ACCOUNT_STATUS.DISABLED, CARRIER_ACCOUNT_STATUS.ACTIVE]).optional(),
};
const schemas = {
  create: z.strictObject(accountFields),
  // Credentials may be left out of a replace: the stored ones are kept (they are never shown to be sent back).
  replace: z.strictObject({ ...accountFields, credentials: accountFields.credentials.optional() }),
};

/** The bodies by carrier kind, as the API documents them: the same schemas as above, one variant per kind. */
const bodyOf = (mode: 'create' | 'replace') =>
  z.discriminatedUnion(
    'carrier',
    CARRIER_KINDS.map((kind) =>
      z.strictObject({
        ...accountFields,
        carrier: z.literal(kind),
        credentials: mode === 'create' ? KINDS[kind].credentials : KINDS[kind].credentials.optional(),
        settings: KINDS[kind].settings.optional(),
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  );
export const carrierAccountBodies = { create: bodyOf('create'), replace: bodyOf('replace') };

export interface CarrierAccountInput {
  carrier: CarrierKind;
  description: string;
  /** absent on a replace that keeps the stored credentials */
  credentials?: Record<string, unknown>;
  settings: Record<string, unknown>;
  status: number;
}

/** Validates a create (POST) or replace (PUT) body, the kind's credentials and settings included; every issue at once. */
export function parseCarrierAccountInput(body: unknown, mode: 'create' | 'replace'): CarrierAccountInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('VALIDATION_FAILED', [{ code: 'INVALID_TYPE', params: { type: 'object' } }]);
  const base = parseOrRefuse(schemas[mode], body);
  const kind = KINDS[base.carrier];
  const prefixed = (prefix: string) => (path: PropertyKey[]) => [prefix, ...path.map(String)].join('.');
  // Credentials and settings are checked both, so one answer names every field at fault.
  const issues: Issue[] = [];
  const checked = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'VALIDATION_FAILED') throw error;
      issues.push(...error.issues);
      return undefined;
    }
  };
  const credentials = base.credentials === undefined ? undefined : checked(() => parseOrRefuse(kind.credentials, base.credentials, prefixed('credentials')));
  const settings = checked(() => parseOrRefuse(kind.settings, base.settings ?? {}, prefixed('settings')));
  if (issues.length || settings === undefined) throw new DomainError('VALIDATION_FAILED', issues);
  return { carrier: base.carrier, description: base.description ?? '', credentials, settings, status: base.status ?? CARRIER_ACCOUNT_STATUS.ACTIVE };
}

/** What a response may show of the credentials: the last four characters of the secret, nothing else. */
export function credentialsHint(kind: CarrierKind, credentials: Record<string, unknown>): string {
  const secret = String(
    (kind === 'consignment_api'
      ? credentials.api_key
      : kind === 'kolay_gelsin'
        ? credentials.token
        : kind === 'trendyol'
          ? credentials.api_secret
          : kind === 'hepsiburada'
            ? credentials.service_key
            : credentials.password) ?? '',
  );
  return secret.length >= 8 ? `****${secret.slice(-4)}` : '****';
}

/**
 * A marketplace's seller API credentials: what its order source and its own carriers' account both take (the account
 * is made with the source, from the same credentials).
 */
export const MARKETPLACE_CREDENTIALS = { trendyol: KINDS.trendyol.credentials, hepsiburada: KINDS.hepsiburada.credentials } as const;
