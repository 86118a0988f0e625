/**
 * Every refusal the service can give, as a stable code. The API maps a code to an HTTP status
 * (src/api/errors.ts) and to an en/tr text (src/i18n/messages.ts); activities raise it as a
 * non-retryable ApplicationFailure whose `type` is the code.
 */
export const ERROR_CODES = [
  // request plumbing
  'INVALID_API_KEY',
  'ROUTE_NOT_FOUND',
  'MALFORMED_JSON',
  'MALFORMED_MULTIPART',
  'MALFORMED_REQUEST',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_INVALID',
  'SERVICE_UNAVAILABLE',
  'SHUTTING_DOWN',
  'INTERNAL_ERROR',
  // field validation (Symfony-style texts, as the API (docs/api.md) quotes "This value should not be blank.")
  'VALIDATION_FAILED',
  'NOT_BLANK',
  'TOO_LONG',
  'TOO_SHORT',
  'LENGTH_EXACT',
  'INVALID_TYPE',
  'INVALID_CHOICE',
  'INVALID_COUNTRY',
  'INVALID_EMAIL',
  'NOT_POSITIVE',
  'TOO_SMALL',
  'TOO_LARGE',
  'TOO_MANY_ENTRIES',
  'NOT_ASCENDING',
  'UNKNOWN_FIELD',
  'INVALID_TEXT',
  'DATE_RANGE_EMPTY',
  'INVALID_ID',
  // consignments
  'CONSIGNMENT_NOT_FOUND',
  'NOT_DRAFT',
  'REFERENCE_USED',
  'PREFERENCE_RULE',
  'PROVIDER_NOT_FOUND',
  'DRAFT_NOT_FOUND',
  'NO_CARRIER_AVAILABLE',
  'PROVIDER_DISABLED',
  'CARRIER_REFUSED',
  'CARRIER_FIELD',
  'CARRIER_UNAVAILABLE',
  'ALREADY_DELIVERED',
  'ALREADY_CANCELLED',
  'CANCEL_FAILED',
  'LABEL_NOT_FOUND',
  'LABEL_LINK_INVALID',
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_LINK_INVALID',
  'DOCUMENT_UNKNOWN',
  'DOCUMENT_TOO_LARGE',
  'DOCUMENT_TYPE_UNSUPPORTED',
  'MULTIPART_REQUIRED',
  'MULTIPART_TOO_MANY_PARTS',
  'LABEL_VOIDED',
  'LABEL_BATCH_ENTRY_INVALID',
  'LABEL_LAYOUT_PDF_ONLY',
  'LABEL_BATCH_EMPTY',
  'ADDRESS_POSTAL_CODE_MISMATCH',
  'ADDRESS_AMBIGUOUS',
  'ADDRESS_POSTAL_CODE_UNKNOWN',
  'ADDRESS_CITY_UNKNOWN',
  'CUSTOMS_DOCUMENT_UNKNOWN',
  'CUSTOMS_NOT_INTERNATIONAL',
  'CUSTOMS_NO_ITEMS',
  'CUSTOMS_CN22_OVER_CEILING',
  'CUSTOMS_CN23_WITHIN_CEILING',
  'NOT_SANDBOX_CONSIGNMENT',
  'INVALID_CARRIER_TOKEN',
  // address search
  'INVALID_COUNTRY_ISO2',
  'INVALID_SEARCH_FIELD',
  // webhooks
  'WEBHOOK_NOT_FOUND',
  'INVALID_ENDPOINT_URL',
  'ENDPOINT_NOT_PUBLIC',
  'UNKNOWN_WEBHOOK_EVENT',
  'INVALID_HEADER_KEY',
  'INVALID_HEADER_VALUE',
  'WEBHOOK_EVENT_NOT_FOUND',
  'WEBHOOK_INACTIVE',
  // carrier accounts
  'CARRIER_ACCOUNT_NOT_FOUND',
  // order sources (live order feeds)
  'ORDER_SOURCE_NOT_FOUND',
  'ORDER_SIGNATURE_INVALID',
  'ORDER_TOPIC_MISSING',
  'ORDER_NOT_JSON',
  'ORDER_NOT_AN_ORDER',
  'ORDER_NOT_DRAFTED',
  'ORDER_SOURCE_PLATFORM_FIXED',
  'ORDER_CREDENTIAL_INVALID',
  'ORDER_CHANGED_AFTER_PROCESSING',
  'ORDER_PACKAGE_SHIPPED',
  'ORDER_FIELD_SHOP_ONLY',
  'ORDER_FIELD_MARKETPLACE_ONLY',
  // order imports
  'IMPORT_NOT_FOUND',
  'IMPORT_FINISHED',
  'IMPORT_UNKNOWN_PRESET',
  'IMPORT_FILE_EMPTY',
  'IMPORT_FILE_TOO_LARGE',
  'IMPORT_INVALID_CSV',
  'IMPORT_NOT_UTF8',
  'IMPORT_COLUMNS_MISSING',
  'IMPORT_CONSIGNOR_REQUIRED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One entry of the envelope's `errors[]`: a code (text chosen per language later), the input path, and text parameters. */
export interface Issue {
  code: ErrorCode;
  field?: string;
  params?: Record<string, string | number>;
}

export class DomainError extends Error {
  readonly issues: Issue[];

  constructor(
    readonly code: ErrorCode,
    issues?: Issue[] | Omit<Issue, 'code'>,
  ) {
    super(code);
    this.name = 'DomainError';
    this.issues = Array.isArray(issues) ? issues : [{ code, ...issues }];
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
