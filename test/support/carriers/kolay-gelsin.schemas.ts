/**
 * Kolay Gelsin contract, transcribed by hand for the test double in `kolay-gelsin-double.ts`.
 *
 * Sources (search library, repository `tcgunel/omniship-kolaygelsin`, commit a7385b59):
 *  - `swagger.json`   OpenAPI 3.0 "Kolay Gelsin Express Cargo Integration Service Documentation" (request schemas)
 *  - `webhook.json`   OpenAPI 3.0 components: "Size Gönderilecek Olan JSON" (the webhook body)
 *  - `api-docs.md`    the prose integration document (envelope, SaveIntegrationShipmentV2, documented error messages)
 * Where the three disagree, the comment on the schema says which one is followed.
 *
 * The documents state NO maxLength, pattern or numeric bound on any field. The only length/format checks here are
 * the ones api-docs.md names in its error lists: TCKN/VKN "regex" (11 / 10 digits), digits-only identity numbers and
 * CityId = Turkish plate code (1..81, "CityNotFound"). Value sets written in descriptions ("1-Bireysel, 2-Kurumsal")
 * are enforced as enums.
 */

// --------------------------------------------------------------------------------------------------------------------
// Cargo event types (shipment statuses)
// --------------------------------------------------------------------------------------------------------------------

export interface CargoEventTypeInfo {
  tr: string;
  en: string;
  /** swagger.json/webhook.json enum ("both") or only the api-docs.md webhook table ("api-docs") */
  listedIn: 'both' | 'api-docs';
}

/** CargoEventType: swagger.json GetCorporateShipmentsStatusResponseModel + webhook.json enum, plus 2/13/14 from api-docs.md. */
export const CARGO_EVENT_TYPES: Readonly<Record<number, CargoEventTypeInfo>> = {
  1: { tr: 'Gönderi Kolay Gelsin sistemine kayıt edildi', en: 'Shipment registered', listedIn: 'both' },
  2: { tr: 'Gönderenden toplama yapacak kurye yola çıktı', en: 'Pickup courier on the way to the sender', listedIn: 'api-docs' },
  12: { tr: 'Paket Kolay Gelsin tarafından teslim alındı', en: 'Picked up by Kolay Gelsin', listedIn: 'both' },
  13: { tr: 'Toplama transfer merkezinde gönderi indirildi', en: 'Unloaded at the pickup transfer centre', listedIn: 'api-docs' },
  14: { tr: 'Dağıtım transfer merkezinde gönderi indirildi', en: 'Unloaded at the delivery transfer centre', listedIn: 'api-docs' },
  17: { tr: 'Dağıtım yapacak kuryenin aracına yüklendi', en: 'Loaded on the delivery courier vehicle', listedIn: 'both' },
  18: { tr: 'Dağıtım Kuryesi Transfer Merkezinden ayrıldı, teslimat adresine doğru yola çıktı', en: 'Out for delivery', listedIn: 'both' },
  25: { tr: 'Alıcı adresi hatalı', en: 'Recipient address wrong', listedIn: 'both' },
  26: { tr: 'Alıcı teslimat adresinde bulunamadı', en: 'Recipient not at the address', listedIn: 'both' },
  28: { tr: 'Alıcı teslimatı reddetti', en: 'Recipient refused delivery', listedIn: 'both' },
  29: { tr: 'Gönderi teslim edildi', en: 'Delivered', listedIn: 'both' },
  31: { tr: 'Gönderen tarafından gönderi durduruldu, gönderene iade edilecek', en: 'Stopped by the sender, returning to sender', listedIn: 'both' },
  32: { tr: 'Alıcı talebi ile gönderinin iade gönderisi kaydedildi', en: 'Return shipment registered at recipient request', listedIn: 'both' },
  33: { tr: 'Gönderi kayıp', en: 'Lost', listedIn: 'both' },
  35: { tr: 'Alıcı adresi problemli', en: 'Recipient address problematic', listedIn: 'both' },
  39: { tr: 'Dağıtım görevi ertesi iş gününe devredildi', en: 'Delivery postponed to the next business day', listedIn: 'both' },
  46: { tr: 'Devir depoya alınan gönderinin operasyonel iadesi kaydedildi', en: 'Operational return registered', listedIn: 'both' },
  58: { tr: 'Hasar raporu oluşturuldu', en: 'Damage report created', listedIn: 'both' },
};

export const CARGO_EVENT_CODES = Object.keys(CARGO_EVENT_TYPES).map(Number);

/** DocumentType (swagger GetDocumentForHistoryBodyModel description, webhook.json enum). */
export const DOCUMENT_TYPES: Readonly<Record<number, string>> = {
  4: 'Teslim edilmiş gönderinin müşteri imzası',
  5: 'Müşteri adreste bulunamadığı durumda kapıya yapıştırılan notun fotoğrafı',
  7: 'Hasar raporu',
  8: 'Gönderinin zimmetlendiği kurye fotoğrafı',
  9: 'Alıcıya gönderilen email',
  10: 'Alıcıya gönderilen sms',
};

/** EventDetailModel.DeliveryCancellationReason in events (webhook.json): 1 Standart, 2 Yasal, 3 Gönderici durdurdu. */
export const EVENT_CANCELLATION_REASONS = ['1', '2', '3'] as const;

// --------------------------------------------------------------------------------------------------------------------
// Request schemas
// --------------------------------------------------------------------------------------------------------------------

type Schema = Record<string, unknown>;

const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const bool = (description: string): Schema => ({ type: 'boolean', description });

/** TCKN: 11 digits, not starting with 0 (api-docs.md: "tckn regex formatına uygun olmaması" → IdentityNumberNotValid). */
export const TCKN_PATTERN = '^[1-9][0-9]{10}$';
/** VKN: 10 digits (api-docs.md: "vkn regex formatına uygun olmaması" → TaxIdentificationNumberNotValid). */
export const VKN_PATTERN = '^[0-9]{10}$';
const DIGITS = '^[0-9]*$';

/** Recipient address: swagger CorporateRecipientModel.Address / IndividualRecipientModel.Address (required AddressText, CityId). */
const recipientAddress = (corporate: boolean): Schema => ({
  type: 'object',
  // swagger: required AddressText, CityId. api-docs.md SaveRecipient errors add TownName (both) and BuildingName
  // (corporate) → "ErrorSavingReceiver"; swagger spells it BuldingName, api-docs BuildingName: either is accepted.
  required: ['AddressText', 'CityId', 'TownName'],
  ...(corporate ? { anyOf: [{ required: ['BuildingName'] }, { required: ['BuldingName'] }] } : {}),
  properties: {
    CityId: int('İl plaka kodu (1..81); unknown → CityNotFound', { minimum: 1, maximum: 81 }),
    TownName: str('İlçe ismi'),
    AddressTypeId: int('1-Ev adresi, 2-İş adresi', { enum: [1, 2] }),
    AddressText: str('Adres metni', { minLength: 1 }),
    BuildingNumber: str('Bina numarası (string in the schema; swagger examples send numbers)'),
    FloorNumber: str('Kat numarası'),
    DoorNumber: str('Kapı numarası'),
    BuldingName: str('Bina adı (swagger spelling)'),
    BuildingName: str('Bina adı (api-docs spelling)'),
    PostalCode: str('Posta kodu'),
    CompanyTitle: str('Şirket ünvanı'),
    CompanyDepartment: str('Şirket departmanı'),
    Direction: str('Adres tarifi'),
  },
});

const recipientCommon: Schema = {
  RecipientType: int('1-Bireysel, 2-Kurumsal', { enum: [1, 2] }),
  Email: str('E-posta'),
  Gsm: str('GSM numarası'),
  OnlyDeliverToRecipient: bool('Sadece alıcıya teslim'),
  SaveOutOfCoverage: bool('Hizmet alanı dışındaysa da kaydet'),
};

/** swagger IndividualRecipientModel: required RecipientName, RecipientSurname, Address. */
const individualRecipient: Schema = {
  type: 'object',
  required: ['RecipientName', 'RecipientSurname', 'Address'],
  properties: {
    ...recipientCommon,
    Address: recipientAddress(false),
    RecipientIdentityNumber: str('TC Kimlik numarası (digits only)', { pattern: DIGITS }),
    RecipientName: str('Alıcı adı', { minLength: 1 }),
    RecipientSurname: str('Alıcı soyadı', { minLength: 1 }),
  },
  // api-docs.md: OnlyDeliverToRecipient=true → RecipientIdentityNumber required (IdentityNumberEntryIsRequired) and a TCKN (IdentityNumberNotValid)
  if: { required: ['OnlyDeliverToRecipient'], properties: { OnlyDeliverToRecipient: { const: true } } },
  then: { required: ['RecipientIdentityNumber'], properties: { RecipientIdentityNumber: { type: 'string', pattern: TCKN_PATTERN } } },
};

/** swagger CorporateRecipientModel: required RecipientTitle, Address. */
const corporateRecipient: Schema = {
  type: 'object',
  required: ['RecipientTitle', 'Address'],
  properties: {
    ...recipientCommon,
    Address: recipientAddress(true),
    RecipientTaxIdentityNumber: str('Vergi Kimlik numarası (digits only)', { pattern: DIGITS }),
    RecipientTitle: str('Alıcı ünvanı', { minLength: 1 }),
  },
  // api-docs.md: OnlyDeliverToRecipient=true → tax number required (TaxIdentificationNumberInputIsRequired) and a VKN (TaxIdentificationNumberNotValid)
  if: { required: ['OnlyDeliverToRecipient'], properties: { OnlyDeliverToRecipient: { const: true } } },
  then: { required: ['RecipientTaxIdentityNumber'], properties: { RecipientTaxIdentityNumber: { type: 'string', pattern: VKN_PATTERN } } },
};

/** Either recipient model, chosen by RecipientType (2 → corporate, otherwise individual). */
const recipientModel: Schema = {
  type: 'object',
  properties: { RecipientType: recipientCommon.RecipientType },
  if: { required: ['RecipientType'], properties: { RecipientType: { const: 2 } } },
  then: corporateRecipient,
  else: individualRecipient,
};

/** POST /SaveRecipient: swagger body `EmptyRequestBody` whose description points to CorporateRecipientModel (RecipientType 2) / IndividualRecipientModel. */
export const saveRecipientSchema: Schema = { $id: 'kolay-gelsin/SaveRecipient', ...recipientModel };

/** SenderCustomer of SaveShipmentBodyModel: required Address{AddressId}, CustomerId. */
const senderCustomer: Schema = {
  type: 'object',
  required: ['Address', 'CustomerId'],
  properties: {
    Address: { type: 'object', required: ['AddressId'], properties: { AddressId: int('Gönderen adres Id (KG verir)') } },
    CustomerId: int('Gönderen müşteri numarası (KG verir)'),
  },
};

/** SenderInvoiceAmount (api-docs.md, decimal; its example sends "20" as a string): number or decimal string. */
const invoiceAmount: Schema = {
  description: 'Tahsilatlı kargo ürün bedeli',
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^[0-9]+([.,][0-9]+)?$' },
  ],
};

/** Fields api-docs.md adds to both shipment bodies (not in swagger SaveShipmentBodyModel). */
const shipmentExtras: Schema = {
  SenderBrand: str('Gönderen marka bilgisi'),
  ProductCodeList: { type: ['array', 'null'], description: '"SAMEDAY" or absent/null', items: { type: 'string', enum: ['SAMEDAY'] } },
  SenderInvoiceAmount: invoiceAmount,
};

const shipmentItem = (dimension: 'integer' | 'number'): Schema => ({
  type: 'object',
  required: ['CustomerTrackingId'], // swagger SaveShipmentBodyModel.ShipmentItemList.items.required
  properties: {
    Width: { type: dimension, minimum: 0, description: 'En' },
    Length: { type: dimension, minimum: 0, description: 'Boy' },
    Height: { type: dimension, minimum: 0, description: 'Yükseklik' },
    Weight: { type: dimension, minimum: 0, description: 'Ağırlık (kg)' },
    ContentText: str('İçerik açıklaması'),
    DeliveryNote: str('İrsaliye numarası'),
    DeliveryNoteDate: str('İrsaliye tarihi', { format: 'date-time' }),
    HasCommercialValue: bool('Ticari değeri var mı'),
    CustomerBarcode: str('Müşteri barkodu'),
    CustomerTrackingId: str('Müşterinin parça takip numarası', { minLength: 1 }),
    CustomerOptionalInfo: str('Müşteriye özel bilgi (api-docs.md)'),
  },
});

const shipmentCommon: Schema = {
  PayingParty: int('1 = Gönderici, 2 = Alıcı', { enum: [1, 2] }),
  PackageType: int('1 = Dosya, 2 = Koli; other → MoveOptionNotFound', { enum: [1, 2] }),
  OnlyDeliverToRecipient: bool('Sadece alıcıya teslim'),
  CustomerSpecificCode: str('Müşterinin gönderi kodu'),
  ...shipmentExtras,
};

/**
 * POST /SaveIntegrationShipment: swagger SaveShipmentBodyModel. Required SenderCustomer, Recipient{RecipientId},
 * PackageType, ShipmentItemList (each item: CustomerTrackingId). Dimensions are `integer` in swagger.
 */
export const saveIntegrationShipmentSchema: Schema = {
  $id: 'kolay-gelsin/SaveIntegrationShipment',
  type: 'object',
  required: ['SenderCustomer', 'Recipient', 'PackageType', 'ShipmentItemList'],
  properties: {
    ...shipmentCommon,
    ShipmentItemList: { type: 'array', minItems: 1, items: shipmentItem('integer') },
    Recipient: { type: 'object', required: ['RecipientId'], properties: { RecipientId: int('SaveRecipient sonucu RecipientId') } },
    SenderCustomer: senderCustomer,
  },
};

/**
 * POST /SaveIntegrationShipmentV2: api-docs.md only (not in swagger.json); used by the reference PHP adapter.
 * Same as SaveShipmentBodyModel but Recipient is the full recipient model (as SaveRecipient) and dimensions are decimal.
 * The item's CustomerTrackingId requirement is carried over from swagger's SaveShipmentBodyModel.
 */
export const saveIntegrationShipmentV2Schema: Schema = {
  $id: 'kolay-gelsin/SaveIntegrationShipmentV2',
  type: 'object',
  required: ['SenderCustomer', 'Recipient', 'PackageType', 'ShipmentItemList'],
  properties: {
    ...shipmentCommon,
    ShipmentItemList: { type: 'array', minItems: 1, items: shipmentItem('number') },
    Recipient: recipientModel,
    SenderCustomer: senderCustomer,
  },
};

/** POST /CancelPickupAndDelivery: swagger CancelPickupAndDeliveryModel (ShipmentId string, DeliveryCancellationReason 1-Standard, 2-Fraud). */
export const cancelPickupAndDeliverySchema: Schema = {
  $id: 'kolay-gelsin/CancelPickupAndDelivery',
  type: 'object',
  required: ['ShipmentId', 'DeliveryCancellationReason'],
  properties: {
    ShipmentId: str('Kolay Gelsin gönderi numarası (string in swagger; api-docs example and PHP adapter send a number)', { minLength: 1 }),
    DeliveryCancellationReason: int('1-Standard, 2-Fraud', { enum: [1, 2] }),
  },
};

/**
 * POST /GetCorporateShipmentsStatus: swagger GetCorporateShipmentsStatusModel. No `required` in the schema, but the
 * operation description says OnlyLatestEvents must be given and at least one list non-empty (the latter is a
 * business rule: "Parametrelerin hepsi boş olamaz").
 */
export const getCorporateShipmentsStatusSchema: Schema = {
  $id: 'kolay-gelsin/GetCorporateShipmentsStatus',
  type: 'object',
  required: ['OnlyLatestEvents'],
  properties: {
    ShipmentIdList: { type: 'array', items: { type: 'string' } },
    CustomerSpecificCodeList: { type: 'array', items: { type: 'string' } },
    CustomerBarcodeList: { type: 'array', items: { type: 'string' } },
    CustomerTrackingIdList: { type: 'array', items: { type: 'string' } },
    OnlyLatestEvents: bool('true = yalnız son aksiyon, false = tüm aksiyonlar'),
  },
};

/** POST /GetCorporateCustomerCargoEventTypes: required header `accept-language` ∈ tr-TR, en-EN; body EmptyRequestBody. */
export const cargoEventTypesHeadersSchema: Schema = {
  $id: 'kolay-gelsin/GetCorporateCustomerCargoEventTypes.headers',
  type: 'object',
  required: ['accept-language'],
  properties: { 'accept-language': { type: 'string', enum: ['tr-TR', 'en-EN'] } },
};
export const emptyBodySchema: Schema = { $id: 'kolay-gelsin/EmptyRequestBody', type: 'object' };

/** POST /GetDocumentForHistory: swagger GetDocumentForHistoryBodyModel (DocumentId Guid — swagger says format "binary"; DocumentType 4,5,7,8,9,10). */
export const getDocumentForHistorySchema: Schema = {
  $id: 'kolay-gelsin/GetDocumentForHistory',
  type: 'object',
  required: ['DocumentId', 'DocumentType'],
  properties: {
    DocumentId: str('Doküman Guid', { pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }),
    DocumentType: int('Doküman tipi', { enum: Object.keys(DOCUMENT_TYPES).map(Number) }),
  },
};

/** Operation name (path segment after the base URL) → body schema. */
export const KOLAY_GELSIN_REQUEST_SCHEMAS = {
  SaveRecipient: saveRecipientSchema,
  SaveIntegrationShipment: saveIntegrationShipmentSchema,
  SaveIntegrationShipmentV2: saveIntegrationShipmentV2Schema,
  CancelPickupAndDelivery: cancelPickupAndDeliverySchema,
  GetCorporateShipmentsStatus: getCorporateShipmentsStatusSchema,
  GetCorporateCustomerCargoEventTypes: emptyBodySchema,
  GetDocumentForHistory: getDocumentForHistorySchema,
} as const;

export type KolayGelsinOperation = keyof typeof KOLAY_GELSIN_REQUEST_SCHEMAS;

// --------------------------------------------------------------------------------------------------------------------
// Webhook payload schema (webhook.json "Size Gönderilecek Olan JSON": an ARRAY of shipment-item models)
// --------------------------------------------------------------------------------------------------------------------

const eventLogModel: Schema = {
  type: 'object',
  required: ['CargoEventType'],
  properties: {
    // webhook.json writes the enum as "1: Gönderi ... kayıt edildi"; the value sent is the code as a string (api-docs example "1").
    CargoEventType: { type: 'string', enum: CARGO_EVENT_CODES.map(String) },
    Latitude: { type: 'string' },
    Longitude: { type: 'string' },
    LocationName: { type: 'string' },
    NumberPlate: { type: 'string' },
    CourierName: { type: 'string' },
    // "0" = no document (api-docs example), else 4,5,7,8,9,10
    DocumentType: { type: 'string', enum: ['0', ...Object.keys(DOCUMENT_TYPES)] },
    DocumentId: { type: 'string' },
    EventDetailModel: {
      type: 'object',
      properties: {
        DeliveryCancellationReason: { type: 'string', enum: ['', ...EVENT_CANCELLATION_REASONS] },
        DeliveredPersonRole: { type: 'string' },
        DeliveredPersonName: { type: 'string' },
        PreviousDeliveryDate: { type: 'string' },
        NewDeliveryDate: { type: 'string' },
        PreviousDeliveryTime: { type: 'string' },
        NewDeliveryTime: { type: 'string' },
        ReturnShipmentId: { type: 'string' },
      },
    },
  },
};

const shipmentItemModel: Schema = {
  type: 'object',
  required: ['ShipmentId', 'ShipmentItemId', 'CargoEventLogModelList'],
  properties: {
    ShipmentId: { type: 'string' },
    ShipmentItemId: { type: 'string' },
    CustomerTrackingId: { type: 'string' },
    CustomerBarcode: { type: 'string' },
    CustomerSpecificCode: { type: 'string' },
    CargoEventLogModelList: { type: 'array', items: eventLogModel },
  },
};

/** webhook.json body; also the item shape of swagger GetCorporateShipmentsStatusResponseModel. */
export const webhookPayloadSchema: Schema = { $id: 'kolay-gelsin/Webhook', type: 'array', minItems: 1, items: shipmentItemModel };

// --------------------------------------------------------------------------------------------------------------------
// Response and webhook builders
// --------------------------------------------------------------------------------------------------------------------

/** api-docs.md "MESAJ YAPISI": every answer is this envelope; only Payload, ResultCode, ResultMessage are meaningful. */
export interface KolayGelsinEnvelope<P = unknown> {
  Source: string;
  Target: string;
  Intent: null;
  Tag: null;
  JobOwner: string;
  JobId: string;
  Payload: P;
  Username: string;
  ResultCode: number;
  ResultMessage: string;
}

export interface EventDetailModel {
  DeliveryCancellationReason: string;
  DeliveredPersonRole: string;
  DeliveredPersonName: string;
  PreviousDeliveryDate: string;
  NewDeliveryDate: string;
  PreviousDeliveryTime: string;
  NewDeliveryTime: string;
  ReturnShipmentId: string;
}

export interface CargoEventLogModel {
  CargoEventType: string;
  Latitude: string;
  Longitude: string;
  LocationName: string;
  NumberPlate: string;
  CourierName: string;
  DocumentType: string;
  DocumentId: string;
  EventDetailModel: EventDetailModel;
  /** NOT in swagger/webhook.json event models (only the flat api-docs webhook); added only when asked for. */
  TimeStamp?: string;
}

export interface ShipmentItemStatusModel {
  ShipmentId: string;
  ShipmentItemId: string;
  CustomerTrackingId: string;
  CustomerBarcode: string;
  CustomerSpecificCode: string;
  CargoEventLogModelList: CargoEventLogModel[];
}

export interface ShipmentItemLabel {
  ShipmentItemId: string;
  CustomerBarcode: string;
  /** swagger name `ShipmentItemIdLabel`; api-docs.md calls it `ShipmentItemLabel` (see the double's `labelField`) */
  [labelField: string]: string;
}

export interface SaveShipmentPayload {
  ShipmentId: string;
  CustomerSpecificCode: string;
  ShipmentItemLabelList: ShipmentItemLabel[];
  ShipmentTrackingLink: string;
}

/** swagger components.responses.Unauthorized → components.schemas.Error */
export interface KolayGelsinUnauthorized {
  code: string;
  message: string;
}

let jobCounter = 0;

export interface EventInput {
  cargoEventType: number;
  locationName?: string;
  latitude?: string;
  longitude?: string;
  numberPlate?: string;
  courierName?: string;
  documentType?: number;
  documentId?: string;
  timeStamp?: string;
  detail?: Partial<EventDetailModel>;
}

export const kolayGelsinResponses = {
  envelope<P>(payload: P, resultCode = 200, resultMessage = 'OK', username = 'customerUser'): KolayGelsinEnvelope<P> {
    const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, '-');
    return {
      Source: 'parcelDelivery',
      Target: 'APIReadQ',
      Intent: null,
      Tag: null,
      JobOwner: 'APIReadQ',
      JobId: `S-KGTEST-${stamp}-${++jobCounter}`,
      Payload: payload,
      Username: username,
      ResultCode: resultCode,
      ResultMessage: resultMessage,
    };
  },
  /** Business / validation error: `ResultCode` 500 (or 404.1 for the address rule) with a message, Payload null. */
  error(resultMessage: string, resultCode = 500): KolayGelsinEnvelope<null> {
    return kolayGelsinResponses.envelope(null, resultCode, resultMessage);
  },
  unauthorized(message = 'Authorization has been denied for this request.'): KolayGelsinUnauthorized {
    return { code: 'Unauthorized', message };
  },
  /** SaveRecipientResponse */
  saveRecipient(recipientId: number): KolayGelsinEnvelope<{ RecipientId: number }> {
    return kolayGelsinResponses.envelope({ RecipientId: recipientId });
  },
  /** SaveShipmentResponse */
  saveShipment(payload: SaveShipmentPayload): KolayGelsinEnvelope<SaveShipmentPayload> {
    return kolayGelsinResponses.envelope(payload);
  },
  /** CancelPickupAndDelivery: swagger declares a 200 without content → envelope with Payload null. */
  cancel(): KolayGelsinEnvelope<null> {
    return kolayGelsinResponses.envelope(null);
  },
  /** GetCorporateShipmentsStatus: api-docs.md `ShipmentModelList` (swagger: the bare array) */
  shipmentsStatus(models: ShipmentItemStatusModel[], shape: 'ShipmentModelList' | 'array' = 'ShipmentModelList') {
    return kolayGelsinResponses.envelope(shape === 'array' ? models : { ShipmentModelList: models });
  },
  /** GetCorporateCustomerCargoEventTypes (api-docs.md: CargoEventTypeList of {CargoEventType int, EventCustomerDescription}) */
  cargoEventTypes(language: 'tr-TR' | 'en-EN') {
    const list = CARGO_EVENT_CODES.map((code) => ({
      CargoEventType: code,
      EventCustomerDescription: language === 'tr-TR' ? CARGO_EVENT_TYPES[code].tr : CARGO_EVENT_TYPES[code].en,
    }));
    return kolayGelsinResponses.envelope({ CargoEventTypeList: list });
  },
  /** GetDocumentForHistoryResponseModel: Data = PDF bytes (base64, as .NET serialises byte[]) */
  document(documentId: string, pdf: Buffer) {
    return kolayGelsinResponses.envelope({ DocumentId: documentId, Data: pdf.toString('base64') });
  },
  eventLog(e: EventInput, withTimeStamp = false): CargoEventLogModel {
    const log: CargoEventLogModel = {
      CargoEventType: String(e.cargoEventType),
      Latitude: e.latitude ?? '',
      Longitude: e.longitude ?? '',
      LocationName: e.locationName ?? '',
      NumberPlate: e.numberPlate ?? '',
      CourierName: e.courierName ?? '',
      DocumentType: String(e.documentType ?? 0),
      DocumentId: e.documentId ?? '',
      EventDetailModel: {
        DeliveryCancellationReason: '',
        DeliveredPersonRole: '',
        DeliveredPersonName: '',
        PreviousDeliveryDate: '',
        NewDeliveryDate: '',
        PreviousDeliveryTime: '',
        NewDeliveryTime: '',
        ReturnShipmentId: '',
        ...e.detail,
      },
    };
    if (withTimeStamp) log.TimeStamp = e.timeStamp ?? new Date().toISOString();
    return log;
  },
  /** webhook.json: an array of shipment-item models, each with its CargoEventLogModelList. */
  webhook(items: Array<Omit<ShipmentItemStatusModel, 'CargoEventLogModelList'>>, events: EventInput[]): ShipmentItemStatusModel[] {
    return items.map((item) => ({ ...item, CargoEventLogModelList: events.map((e) => kolayGelsinResponses.eventLog(e)) }));
  },
  /** api-docs.md WEBHOOK section: one flat object per event (the other documented shape). */
  webhookFlat(item: Omit<ShipmentItemStatusModel, 'CargoEventLogModelList'>, e: EventInput, customerId: number, customerOptionalInfo = '') {
    const log = kolayGelsinResponses.eventLog(e);
    return {
      CargoEventType: log.CargoEventType,
      ShipmentPartyType: '1',
      ShipmentId: item.ShipmentId,
      ShipmentItemId: item.ShipmentItemId,
      LocationName: log.LocationName,
      NumberPlate: log.NumberPlate,
      CourierName: log.CourierName,
      DocumentId: log.DocumentId,
      DocumentType: log.DocumentType,
      Latitude: log.Latitude,
      Longitude: log.Longitude,
      CustomerBarcode: item.CustomerBarcode,
      CustomerTrackingId: item.CustomerTrackingId,
      CustomerOptionalInfo: customerOptionalInfo,
      CustomerSpecificCode: item.CustomerSpecificCode,
      CustomerId: String(customerId),
      TimeStamp: e.timeStamp ?? new Date().toISOString(),
      EventDetailModel: { ...log.EventDetailModel, PreviousPrice: '' },
    };
  },
};
