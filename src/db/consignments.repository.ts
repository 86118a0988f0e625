import type { ConsignmentRecord, HistoryEntry } from '../domain/consignment';
import type { ConsignmentFilter } from '../domain/consignment-filter';
import { pageOffset, type PageRequest } from '../domain/pagination';
import { referenceUsed, type DraftInput, type PackageInput } from '../domain/draft';
import { DomainError } from '../domain/errors';
import { orNull } from '../domain/nulls';
import type { Costs } from '../domain/fees';
import { STATUS } from '../domain/statuses';
import { consignmentType, packageDesi, totals } from '../domain/weights';
import { isUniqueViolation, type Database, type Queryable } from './database';
import { timeStage, withoutStageTimes } from '../stage-timing';
import { groupedWhileBusy } from './grouping';
import { DOCUMENT_FILES_JSON, documentRecords, type DocumentRecord } from './documents.repository';
import type { LabelSummary } from './labels.repository';

/**
 * A consignment's packages with their items as a JSON array, `c` being its row. `packages` and `items` name the
 * relations they are read from: the tables, or the rows an INSERT of the same statement returned (a
 * statement's own inserts are not visible to its reads of the tables).
 */
const packagesJson = (packages = 'consignment_packages', items = 'package_items') => `COALESCE((
  SELECT json_agg(json_build_object(
    'id', p.id, 'package_type', p.package_type, 'provider_packaging_type', p.provider_packaging_type, 'post_type', p.post_type,
    'weight', p.weight, 'length', p.length, 'width', p.width, 'height', p.height, 'desi', p.desi,
    'dangerous_goods', p.dangerous_goods, 'quantity', p.quantity,
    'items', COALESCE((
      SELECT json_agg(json_build_object(
        'id', i.id, 'description', i.description, 'gtip', i.gtip, 'origin', i.origin, 'currency_code', i.currency_code,
        'unit_price', i.unit_price, 'quantity', i.quantity, 'category', i.category) ORDER BY i.position)
      FROM ${items} i WHERE i.package_id = p.id), '[]'::json)
  ) ORDER BY p.position)
  FROM ${packages} p WHERE p.consignment_id = c.id), '[]'::json)`;

/** A consignment's columns as the record takes them, `c` being its row (a SELECT or an UPDATE's RETURNING). */
const consignmentColumns = (
  packages = packagesJson(),
) => `c.id, c.uuid, c.customer_id, c.user_id, c.status, c.preference, c.provider_id, c.address_resolver_type,
  c.reference_no, c.invoice_number, c.incoterms_type, c.specific_shipping_method, c.generate_provider_barcode,
  c.specific_provider_barcode, c.barcode, c.consignor, c.consignee, c.documents, c.special_services,
  c.weight, c.desi, c.consignment_type, c.import_id, c.tracking_code, c.tracking_url, c.service_name,
  c.provider_base_cost, c.additional_cost, c.rule_cost, c.service_fee, c.special_service_fee, c.total_cost,
  c.currency_code, c.currency_rate, c.processed_at, c.created_at, c.updated_at, ${packages} AS packages`;
const CONSIGNMENT_COLUMNS = consignmentColumns();

const SELECT_CONSIGNMENT = `SELECT ${CONSIGNMENT_COLUMNS} FROM consignments c`;

const NUMERIC_COLUMNS = [
  'weight',
  'desi',
  'provider_base_cost',
  'additional_cost',
  'rule_cost',
  'service_fee',
  'special_service_fee',
  'total_cost',
  'currency_rate',
] as const;

type ConsignmentRow = Omit<ConsignmentRecord, 'created_at' | 'updated_at' | 'processed_at' | (typeof NUMERIC_COLUMNS)[number]> &
  Record<(typeof NUMERIC_COLUMNS)[number], number | string> & { created_at: Timestamp; updated_at: Timestamp; processed_at: Timestamp | null };
/** A timestamptz as a driver gives it (a Date), or as JSON holds it (text with an offset). */
type Timestamp = Date | string;
const isoTime = (t: Timestamp) => new Date(t).toISOString();

function toRecord(row: ConsignmentRow): ConsignmentRecord {
  const numbers = Object.fromEntries(NUMERIC_COLUMNS.map((c) => [c, Number(row[c])])) as Record<(typeof NUMERIC_COLUMNS)[number], number>;
  return {
    ...row,
    ...numbers,
    id: Number(row.id),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    processed_at: row.processed_at ? isoTime(row.processed_at) : null,
  };
}

export type ConsignmentKey =
  { uuid: string } | { id: number; customerId: number } | { referenceNo: string; customerId: number } | { barcode: string; customerId: number };

/** A consignment by `key`; `forUpdate` also locks its row for the rest of the transaction. */
function keyCondition(key: ConsignmentKey): [where: string, params: unknown[]] {
  if ('uuid' in key) return ['c.uuid = $1', [key.uuid]];
  if ('id' in key) return ['c.id = $1 AND c.customer_id = $2', [key.id, key.customerId]];
  if ('referenceNo' in key) return ['c.reference_no = $1 AND c.customer_id = $2', [key.referenceNo, key.customerId]];
  return ['c.barcode = $1 AND c.customer_id = $2', [key.barcode, key.customerId]];
}

export async function findConsignment(q: Queryable, key: ConsignmentKey, options: { forUpdate?: boolean } = {}): Promise<ConsignmentRecord | undefined> {
  const [where, params] = keyCondition(key);
  const { rows } = await q.query<ConsignmentRow>(`${SELECT_CONSIGNMENT} WHERE ${where}${options.forUpdate ? ' FOR UPDATE OF c' : ''}`, params);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/** The history and labels of `c`, as JSON arrays (one statement for a detail lookup). */
const HISTORY_AND_LABELS_JSON = `
  COALESCE((SELECT json_agg(json_build_object('status', h.status, 'message', h.message, 'location', h.location, 'occurred_at', h.occurred_at) ORDER BY h.id)
    FROM consignment_history h WHERE h.consignment_id = c.id), '[]'::json) AS history,
  COALESCE((SELECT json_agg(json_build_object('id', l.id, 'provider_id', l.provider_id, 'file_name', l.file_name, 'tracking_code', l.tracking_code,
      'label_type', l.label_type, 'tracking_type', l.tracking_type, 'voided', l.voided_at IS NOT NULL) ORDER BY l.id)
    FROM labels l WHERE l.consignment_id = c.id), '[]'::json) AS labels,
  ${DOCUMENT_FILES_JSON} AS document_files`;

type DetailRow = ConsignmentRow & {
  history: (Omit<HistoryEntry, 'occurred_at'> & { occurred_at: string })[];
  labels: LabelSummary[];
  document_files: Parameters<typeof documentRecords>[0];
};
/** A consignment with its history, labels and the uploaded documents it references. */
export type ConsignmentDetails = { consignment: ConsignmentRecord; history: HistoryEntry[]; labels: LabelSummary[]; documents: DocumentRecord[] };

/**
 * A detail SELECT's rows as one JSON text each (`detail`), in the SELECT's order of `c.created_at DESC, c.id
 * DESC` when `ordered`. PGlite's thread then reads one field a row instead of 41 and hands over one string, which
 * halves what a detail lookup costs the thread (docs/operations.md).
 */
const asJsonText = (select: string, ordered = false) =>
  `SELECT row_to_json(x)::text AS detail FROM (${select}) x${ordered ? ' ORDER BY x.created_at DESC, x.id DESC' : ''}`;

function toDetails({ detail }: { detail: string }): ConsignmentDetails {
  const { history, labels, document_files, ...consignment } = JSON.parse(detail) as DetailRow;
  return {
    consignment: toRecord(consignment as ConsignmentRow),
    documents: documentRecords(document_files),
    history: history.map((h) => ({ ...h, occurred_at: new Date(h.occurred_at).toISOString() })),
    labels: labels.map((l) => ({ ...l, id: Number(l.id), provider_id: Number(l.provider_id) })),
  };
}

/**
 * A consignment's details, and their version where the database keeps a read cache (PGlite's thread,
 * read-cache.ts): the change the details are current as of. Two lookups of the same consignment with the same
 * version have the same details, whichever key found it; absent, nothing is known of them beyond this answer.
 */
export type VersionedDetails = { details: ConsignmentDetails; version?: number };

/**
 * A consignment with its history (in the order the status changes were applied; `occurred_at` is the carrier's
 * own time) and its labels, in one statement, with the version of its details (VersionedDetails).
 */
export async function findConsignmentDetails(q: Queryable, key: ConsignmentKey): Promise<VersionedDetails | undefined> {
  const [where, params] = keyCondition(key);
  let sql = detailSql.get(where);
  if (!sql) detailSql.set(where, (sql = asJsonText(`SELECT ${CONSIGNMENT_COLUMNS}, ${HISTORY_AND_LABELS_JSON} FROM consignments c WHERE ${where}`)));
  if (!q.cachedQuery) {
    const { rows } = await q.query<{ detail: string }>(sql, params);
    return rows[0] && { details: toDetails(rows[0]) };
  }
  // Lookups are the most frequent request: answered from the read cache where the database keeps one, those
  // by id in batches under load.
  const { rows, version } = await q.cachedQuery(sql, params, 'id' in key ? DETAILS_BY_IDS : DETAILS);
  return rows[0] && { details: rows[0], version };
}

/**
 * What the read cache keeps of a detail row, the one place that decides it: its details, parsed once, not its
 * JSON text; frozen, for every lookup the cache answers shares them.
 */
const keepDetails = (row: Record<string, unknown>) => deepFreeze(toDetails(row as { detail: string }));
const DETAILS = { keep: keepDetails };

/** Lookups by id and customer, many at once: each row with `n`, the position of the lookup it answers. */
const DETAILS_BY_IDS = {
  keep: keepDetails,
  batch: {
    sql: `SELECT k.n, row_to_json(x)::text AS detail FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS k(id, customer_id, n)
    CROSS JOIN LATERAL (SELECT ${CONSIGNMENT_COLUMNS}, ${HISTORY_AND_LABELS_JSON} FROM consignments c WHERE c.id = k.id AND c.customer_id = k.customer_id) x`,
  },
};

/**
 * Plans the lookups by id (one, and many at once) before the first request needs them: where statements are
 * kept prepared (PGlite's thread), the first lookups after a start would otherwise wait for the planning.
 */
export async function prepareDetailLookups(q: Queryable): Promise<void> {
  await findConsignmentDetails({ query: (sql, params) => q.query(sql, params) }, { id: 0, customerId: 0 });
  await q.query(DETAILS_BY_IDS.batch.sql, [[], []]);
}

/** The detail lookup's SQL by its condition, made once (a text known by identity is found faster in maps). */
const detailSql = new Map<string, string>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of a customer's consignments matching `filter`, newest first, in detail form (history and labels
 * beside each), and how many match in all. Two statements: the page, and the count.
 */
/** The SQL condition (on `consignments c`) of a customer's consignments matching `filter`, and its parameters. */
function filterCondition(customerId: number, filter: ConsignmentFilter): { condition: string; params: unknown[] } {
  const params: unknown[] = [customerId];
  const where = ['c.customer_id = $1'];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.statuses) add((n) => `c.status = ANY(${n}::smallint[])`, filter.statuses);
  if (filter.providerId !== undefined) add((n) => `c.provider_id = ${n}`, filter.providerId);
  if (filter.referencePrefix !== undefined) add((n) => `c.reference_no LIKE ${n}`, likePrefix(filter.referencePrefix));
  if (filter.barcode !== undefined) add((n) => `c.barcode = ${n}`, filter.barcode);
  if (filter.importId !== undefined) add((n) => `c.import_id = ${n}`, filter.importId);
  if (filter.createdFrom !== undefined) add((n) => `c.created_at >= ${n}`, filter.createdFrom);
  if (filter.createdBefore !== undefined) add((n) => `c.created_at < ${n}`, filter.createdBefore);
  return { condition: where.join(' AND '), params };
}

export async function listConsignments(
  q: Queryable,
  customerId: number,
  filter: ConsignmentFilter,
  page: PageRequest,
): Promise<{ rows: ConsignmentDetails[]; total: number }> {
  const { condition, params } = filterCondition(customerId, filter);
  const [{ rows }, count] = await Promise.all([
    // The page's ids first, then their details: a deep page's offset skips rows without building their JSON.
    q.query<{ detail: string }>(
      asJsonText(
        `SELECT ${CONSIGNMENT_COLUMNS}, ${HISTORY_AND_LABELS_JSON}
           FROM (SELECT c.id FROM consignments c WHERE ${condition}
                  ORDER BY c.created_at DESC, c.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) p
           JOIN consignments c ON c.id = p.id`,
        true,
      ),
      [...params, page.limit, pageOffset(page)],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM consignments c WHERE ${condition}`, params),
  ]);
  return { rows: rows.map(toDetails), total: count.rows[0].n };
}

/** How many of a customer's consignments matching `filter` (its statuses aside) are in each status. */
export async function countConsignmentsByStatus(q: Queryable, customerId: number, filter: ConsignmentFilter): Promise<Map<number, number>> {
  const { condition, params } = filterCondition(customerId, { ...filter, statuses: undefined });
  const { rows } = await q.query<{ status: number; n: number }>(
    `SELECT c.status, count(*)::int AS n FROM consignments c WHERE ${condition} GROUP BY c.status`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.status), Number(r.n)]));
}

/** What addressing a consignment's workflow needs of it, and its status (not its parties and packages). */
export type ConsignmentRef = Pick<ConsignmentRecord, 'id' | 'uuid' | 'reference_no' | 'provider_id' | 'import_id' | 'status'>;

/** A customer's consignment without loading it whole. */
export async function findConsignmentRef(q: Queryable, customerId: number, id: number): Promise<ConsignmentRef | undefined> {
  const { rows } = await q.query<ConsignmentRef>(
    'SELECT id, uuid, reference_no, provider_id, import_id, status FROM consignments WHERE id = $1 AND customer_id = $2',
    [id, customerId],
  );
  const row = rows[0];
  return row && { ...row, id: Number(row.id), provider_id: row.provider_id === null ? null : Number(row.provider_id) };
}

/**
 * Deletes a draft (status 24) and what cascades from it (packages, history, outbox entry): the row as it was,
 * or undefined when there is no such draft (gone already, or no longer a draft: `status` says which).
 */
export async function deleteDraftRow(
  tx: Queryable,
  uuid: string,
): Promise<{ deleted?: { id: number; customerId: number; referenceNo: string | null; status: number }; status?: number }> {
  const { rows } = await tx.query<{ id: number; customer_id: number; reference_no: string | null; status: number }>(
    `DELETE FROM consignments WHERE uuid = $1 AND status = $2 RETURNING id, customer_id, reference_no, status`,
    [uuid, STATUS.NEW_DRAFT],
  );
  if (rows[0])
    return { deleted: { id: Number(rows[0].id), customerId: Number(rows[0].customer_id), referenceNo: rows[0].reference_no, status: rows[0].status } };
  const left = await tx.query<{ status: number }>('SELECT status FROM consignments WHERE uuid = $1', [uuid]);
  return { status: left.rows[0]?.status };
}

export async function isReferenceTaken(q: Queryable, customerId: number, referenceNo: string, exceptUuid?: string): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM consignments WHERE customer_id = $1 AND reference_no = $2 AND uuid IS DISTINCT FROM $3', [
    customerId,
    referenceNo,
    exceptUuid ?? null,
  ]);
  return rows.length > 0;
}

/** The one reference rule: REFERENCE_USED when another consignment of the customer has `referenceNo`. */
export async function refuseTakenReference(q: Queryable, customerId: number, referenceNo: string | null | undefined, exceptUuid?: string): Promise<void> {
  if (referenceNo && (await isReferenceTaken(q, customerId, referenceNo, exceptUuid))) throw referenceUsed();
}

/** The consignment a carrier's tracking code belongs to (carrier events name shipments by tracking code). */
export async function findByTrackingCode(q: Queryable, providerId: number, trackingCode: string): Promise<{ uuid: string; id: number } | undefined> {
  const { rows } = await q.query<{ uuid: string; id: number }>('SELECT uuid, id FROM consignments WHERE provider_id = $1 AND tracking_code = $2', [
    providerId,
    trackingCode,
  ]);
  return rows[0] && { uuid: rows[0].uuid, id: Number(rows[0].id) };
}

/** The columns a draft writes, with their types: DRAFT_COLUMNS in this order, and the JSON row of an insert. */
const DRAFT_COLUMN_TYPES = [
  ['preference', 'smallint'],
  ['provider_id', 'int'],
  ['address_resolver_type', 'smallint'],
  ['reference_no', 'text'],
  ['invoice_number', 'text'],
  ['incoterms_type', 'smallint'],
  ['specific_shipping_method', 'text'],
  ['generate_provider_barcode', 'boolean'],
  ['specific_provider_barcode', 'text'],
  ['consignor', 'jsonb'],
  ['consignee', 'jsonb'],
  ['documents', 'jsonb'],
  ['special_services', 'jsonb'],
  ['weight', 'numeric'],
  ['desi', 'numeric'],
  ['consignment_type', 'smallint'],
] as const;
type DraftColumn = (typeof DRAFT_COLUMN_TYPES)[number][0];

/** A draft's column values by name, derived fields (weight, desi, consignment_type) included. */
function draftRow(draft: DraftInput): Record<DraftColumn, unknown> {
  const { weight, desi } = totals(draft.packages ?? []);
  return {
    preference: draft.preference ?? null,
    provider_id: draft.provider_id ?? null,
    address_resolver_type: draft.address_resolver_type ?? 0,
    reference_no: draft.reference_no ?? null,
    invoice_number: draft.invoice_number ?? null,
    incoterms_type: draft.incoterms_type ?? 2,
    specific_shipping_method: draft.specific_shipping_method ?? null,
    generate_provider_barcode: draft.generate_provider_barcode ?? false,
    specific_provider_barcode: draft.specific_provider_barcode ?? null,
    consignor: draft.consignor ?? {},
    consignee: draft.consignee ?? {},
    documents: draft.documents ?? [],
    special_services: draft.special_services ?? [],
    weight,
    desi,
    consignment_type: consignmentType(draft.consignor?.country, draft.consignee?.country),
  };
}

/** Column values of a draft as statement parameters, in DRAFT_COLUMNS order (JSON columns as JSON text). */
export function draftColumns(draft: DraftInput): unknown[] {
  const row = draftRow(draft);
  return DRAFT_COLUMN_TYPES.map(([name, type]) => (type === 'jsonb' ? JSON.stringify(row[name]) : row[name]));
}

export const DRAFT_COLUMNS = DRAFT_COLUMN_TYPES.map(([name]) => name).join(', ');

/** A draft's packages as rows for jsonb_to_recordset (PACKAGE_ROWS), in their order; `uuid` names the draft. */
const packageRows = (uuid: string, packages: PackageInput[]) =>
  packages.map((p, position) => ({
    uuid,
    position,
    ...orNull(p, ['package_type', 'provider_packaging_type', 'post_type', 'weight', 'length', 'width', 'height']),
    desi: packageDesi(p),
    dangerous_goods: p.dangerous_goods ?? null,
  }));

/** The items of a draft's packages as rows for jsonb_to_recordset (ITEM_ROWS): each names its draft and its package's position. */
const itemRows = (uuid: string, packages: PackageInput[]) =>
  packages.flatMap((p, packagePosition) =>
    (p.items ?? []).map((item, position) => ({
      uuid,
      package_position: packagePosition,
      position,
      ...orNull(item, ['description', 'gtip', 'origin', 'currency_code', 'unit_price', 'quantity', 'category']),
    })),
  );

const PACKAGE_ROWS = `uuid uuid, position int, package_type smallint, provider_packaging_type text, post_type int, weight numeric, length numeric,
  width numeric, height numeric, desi numeric, dangerous_goods boolean`;
const ITEM_ROWS = `uuid uuid, package_position int, position int, description text, gtip text, origin text, currency_code text, unit_price numeric,
  quantity int, category text`;

/**
 * INSERTs of the packages (as `p`) and their items (as `i`) of the consignments `c` returned by an earlier CTE,
 * from the JSON rows in parameters `packages` and `items` (each row names its consignment's uuid): one statement
 * text whatever the number of drafts, packages and items.
 */
const insertPackagesCte = (packages: string, items: string) => `p AS (
    INSERT INTO consignment_packages (consignment_id, position, package_type, provider_packaging_type, post_type, weight, length, width, height, desi, dangerous_goods)
    SELECT c.id, x.position, x.package_type, x.provider_packaging_type, x.post_type, x.weight, x.length, x.width, x.height, x.desi, x.dangerous_goods
      FROM c JOIN jsonb_to_recordset(${packages}::jsonb) AS x(${PACKAGE_ROWS}) ON x.uuid = c.uuid
    RETURNING *
  ), i AS (
    INSERT INTO package_items (package_id, position, description, gtip, origin, currency_code, unit_price, quantity, category)
    SELECT p.id, x.position, x.description, x.gtip, x.origin, x.currency_code, x.unit_price, x.quantity, x.category
      FROM jsonb_to_recordset(${items}::jsonb) AS x(${ITEM_ROWS})
      JOIN c ON c.uuid = x.uuid JOIN p ON p.consignment_id = c.id AND p.position = x.package_position
    RETURNING *
  )`;

export interface NewDraft {
  uuid: string;
  customerId: number;
  userId: number | null;
  importId?: string | null;
  draft: DraftInput;
  status: number;
  statusMessage: string;
}

const NEW_DRAFT_ROWS = `ord int, uuid uuid, customer_id int, user_id int, status smallint, import_id text, status_message text,
  ${DRAFT_COLUMN_TYPES.map(([name, type]) => `${name} ${type}`).join(', ')}`;

/**
 * What createDrafts does with a draft whose uuid, or whose customer's reference_no, another consignment has:
 * - `'return-stored'`: a uuid stored already (a retried create, or a concurrent one of the same draft) answers
 *   the draft stored under it, `created` false; a reference_no the customer used fails the whole call
 *   (REFERENCE_USED, nothing written). A concurrent create of the same draft may trip over its reference_no
 *   before its uuid: its caller then finds the draft by uuid.
 * - `'skip'`: the draft is left out and the others are written; the answer holds only those written. For a
 *   caller that decided duplicates itself (an import), to which one taken since is a duplicate too.
 */
export type OnTakenDraft = 'return-stored' | 'skip';

/**
 * What starts a created draft's lifecycle workflow:
 * - `'outbox'`: its outbox entry, written with it, which the relay turns into the workflow's start (creation's
 *   one path, docs/architecture.md principle 1).
 * - `'none'`: nothing: the workflow writing it runs already (the replay-only createDraft handler), or the rows
 *   are seeded without a lifecycle (benches).
 */
export type DraftWorkflowStart = 'outbox' | 'none';

export interface CreateDraftsOptions {
  /** default `'return-stored'` */
  onTaken?: OnTakenDraft;
  /** default `'outbox'` */
  workflowStart?: DraftWorkflowStart;
}

/** A draft createDrafts answers in `'return-stored'` mode: as stored, and whether this call stored it. */
export interface CreatedDraft {
  record: ConsignmentRecord;
  created: boolean;
}

/**
 * The statement of createDrafts: consignments, packages, items, first history entries and, when $4, outbox
 * entries, from JSON rows (the same text for one draft or a thousand, so one plan). `'skip'` skips a draft
 * whose uuid or reference_no is taken and answers ids; `'return-stored'` skips only a taken uuid (a taken
 * reference fails the statement) and answers records.
 */
const createDraftsStatement = (onTaken: OnTakenDraft) => `WITH d AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS d(${NEW_DRAFT_ROWS})
  ), c AS (
    INSERT INTO consignments (uuid, customer_id, user_id, status, import_id, ${DRAFT_COLUMNS})
    SELECT uuid, customer_id, user_id, status, import_id, ${DRAFT_COLUMNS} FROM d ORDER BY ord
    ON CONFLICT ${onTaken === 'skip' ? '' : '(uuid) '}DO NOTHING RETURNING *
  ), ${insertPackagesCte('$2', '$3')}, h AS (
    INSERT INTO consignment_history (consignment_id, status, message, event_key)
    SELECT c.id, c.status, d.status_message, 'created' FROM c JOIN d ON d.uuid = c.uuid ORDER BY c.id
  ), o AS (
    INSERT INTO consignment_outbox (consignment_id) SELECT c.id FROM c WHERE $4::boolean
  )
  SELECT ${onTaken === 'skip' ? 'c.id, c.uuid' : consignmentColumns(packagesJson('p', 'i'))} FROM c ORDER BY c.id`;

const CREATE_DRAFTS_SQL: Record<OnTakenDraft, string> = { 'return-stored': createDraftsStatement('return-stored'), skip: createDraftsStatement('skip') };

/** The parameters of createDraftsStatement. */
const createDraftsParams = (drafts: NewDraft[], workflowStart: DraftWorkflowStart) => [
  JSON.stringify(
    drafts.map((d, ord) => ({
      ord,
      uuid: d.uuid,
      customer_id: d.customerId,
      user_id: d.userId,
      status: d.status,
      import_id: d.importId ?? null,
      status_message: d.statusMessage,
      ...draftRow(d.draft),
    })),
  ),
  JSON.stringify(drafts.flatMap((d) => packageRows(d.uuid, d.draft.packages ?? []))),
  JSON.stringify(drafts.flatMap((d) => itemRows(d.uuid, d.draft.packages ?? []))),
  workflowStart === 'outbox',
];

/**
 * Creates drafts, every way a draft is made (the API and the console through the consignment service, order
 * feeds, imports, the replay-only createDraft handler): each with its packages, items, first history entry
 * and (`workflowStart`) its outbox entry, all in one statement, so all or nothing, in the caller's
 * transaction when `q` is one. `onTaken` says what a taken uuid or reference_no does (OnTakenDraft): with
 * `'skip'` the answer is the ids of the drafts written, by uuid; otherwise every draft as stored, in order.
 * A uuid may appear once per call (packages are joined to their draft by it).
 */
export function createDrafts(q: Queryable, drafts: NewDraft[], options: CreateDraftsOptions & { onTaken: 'skip' }): Promise<Map<string, number>>;
export function createDrafts(q: Queryable, drafts: NewDraft[], options?: CreateDraftsOptions & { onTaken?: 'return-stored' }): Promise<CreatedDraft[]>;
export async function createDrafts(q: Queryable, drafts: NewDraft[], options: CreateDraftsOptions = {}): Promise<Map<string, number> | CreatedDraft[]> {
  const { onTaken = 'return-stored', workflowStart = 'outbox' } = options;
  if (new Set(drafts.map((d) => d.uuid.toLowerCase())).size !== drafts.length) throw new Error('createDrafts: a uuid twice in one call');
  if (onTaken === 'skip') {
    if (drafts.length === 0) return new Map<string, number>();
    const { rows } = await q.query<{ id: number; uuid: string }>(CREATE_DRAFTS_SQL.skip, createDraftsParams(drafts, workflowStart));
    return new Map(rows.map((row) => [row.uuid, Number(row.id)]));
  }
  if (drafts.length === 0) return [];
  const { rows } = await referenceGuard(() => q.query<ConsignmentRow>(CREATE_DRAFTS_SQL['return-stored'], createDraftsParams(drafts, workflowStart)));
  return answerStored(q, drafts, rows);
}

/** Each draft's answer in `'return-stored'` mode: its inserted row, or the draft an earlier insert of its uuid stored (`created` false). */
function answerStored(q: Queryable, drafts: NewDraft[], rows: ConsignmentRow[]): Promise<CreatedDraft[]> {
  const inserted = new Map(rows.map((row) => [row.uuid.toLowerCase(), row]));
  return Promise.all(
    drafts.map(async (d) => {
      const row = inserted.get(d.uuid.toLowerCase());
      return row ? { record: toRecord(row), created: true } : { record: (await findConsignment(q, { uuid: d.uuid }))!, created: false };
    }),
  );
}

/** Drafts in one grouped createDrafts at most. */
const MAX_GROUPED_DRAFTS = 50;

/**
 * createDrafts (default options) of one draft at a time for many concurrent callers, where the database runs
 * one statement at a time (PGlite): drafts created while one group is with the database wait for it and then
 * go together as one createDrafts — one plan, one commit and one round trip to PGlite's thread instead of one
 * each, so under a burst the thread's queue (and a draft's wait in it) stays short. Each draft keeps its own
 * answer: a group the database refuses (one draft's reference_no already taken, say) is tried again draft by
 * draft, so each draft gets its own record or error. Elsewhere (a PostgreSQL pool runs statements side by
 * side) each draft is its own createDrafts.
 */
export function groupedDraftCreator(db: Database): (draft: NewDraft) => Promise<CreatedDraft> {
  const single = async (draft: NewDraft) => (await createDrafts(db, [draft]))[0];
  if (db.kind !== 'pglite') return single;
  type Waiting = { draft: NewDraft; resolve: (result: Promise<CreatedDraft>) => void };
  const createGroup = async (group: Waiting[]) => {
    if (group.length === 1) return group[0].resolve(single(group[0].draft));
    let created: CreatedDraft[];
    try {
      created = await createDrafts(
        db,
        group.map((w) => w.draft),
      );
    } catch {
      const tries = group.map((w) => single(w.draft));
      group.forEach((w, i) => w.resolve(tries[i]));
      await Promise.allSettled(tries);
      return;
    }
    group.forEach((w, i) => w.resolve(Promise.resolve(created[i])));
  };
  // A uuid once per group (createDrafts' rule): a second draft with it goes in a later group, which finds the first's row.
  const sameUuid = (a: Waiting, b: Waiting) => a.draft.uuid.toLowerCase() === b.draft.uuid.toLowerCase();
  const offer = groupedWhileBusy(createGroup, { max: MAX_GROUPED_DRAFTS, fits: (group, w) => !group.some((other) => sameUuid(other, w)) });
  // Each draft's wait for its group is its request's `db` time; the group's statements belong to no request.
  return (draft) => timeStage('db', () => new Promise((resolve) => withoutStageTimes(() => offer({ draft, resolve }))));
}

/** Writes a whole (already merged) draft; packages are replaced only when `replacePackages`. */
export async function saveDraft(tx: Queryable, uuid: string, draft: DraftInput, replacePackages: boolean): Promise<void> {
  const columns = draftColumns(draft);
  const assignments = DRAFT_COLUMNS.split(',').map((c, i) => `${c.trim()} = $${i + 2}`);
  const { rows } = await tx.query<{ id: number }>(`UPDATE consignments SET ${assignments.join(', ')}, updated_at = now() WHERE uuid = $1 RETURNING id`, [
    uuid,
    ...columns,
  ]);
  if (!replacePackages) return;
  const packages = draft.packages ?? [];
  await tx.query(
    `WITH gone AS (DELETE FROM consignment_packages WHERE consignment_id = $1), c AS (SELECT $1::bigint AS id, $4::uuid AS uuid), ${insertPackagesCte('$2', '$3')}
     SELECT count(*) FROM p`,
    [Number(rows[0].id), JSON.stringify(packageRows(uuid, packages)), JSON.stringify(itemRows(uuid, packages)), uuid],
  );
}

export interface ProcessedFields {
  status: number;
  barcode: string;
  providerId: number;
  trackingCode: string;
  trackingUrl: string;
  serviceName: string;
  costs: Costs;
  currency: string;
  /** the id of the workflow update that processed it */
  processKey?: string;
}

/** Writes what processing decided: status 2 or 3, the service barcode, the carrier's booking and the costs; the consignment as written. */
export async function markProcessed(tx: Queryable, uuid: string, f: ProcessedFields): Promise<ConsignmentRecord> {
  const { rows } = await tx.query<ConsignmentRow>(
    `UPDATE consignments c SET status = $2, barcode = $3, provider_id = $4, tracking_code = $5, tracking_url = $6, service_name = $7,
       provider_base_cost = $8, additional_cost = 0, rule_cost = 0, service_fee = $9, special_service_fee = $10, total_cost = $11,
       currency_code = $12, currency_rate = 1, processed_at = now(), updated_at = now(), process_key = $13
     WHERE uuid = $1 RETURNING ${CONSIGNMENT_COLUMNS}`,
    [
      uuid,
      f.status,
      f.barcode,
      f.providerId,
      f.trackingCode,
      f.trackingUrl,
      f.serviceName,
      f.costs.baseCost,
      f.costs.serviceFee,
      f.costs.specialServiceFee,
      f.costs.totalCost,
      f.currency,
      f.processKey ?? null,
    ],
  );
  if (!rows[0]) throw new DomainError('CONSIGNMENT_NOT_FOUND');
  return toRecord(rows[0]);
}

/** The id of the workflow update that processed the consignment, if it was processed with one. */
export async function findProcessKey(q: Queryable, uuid: string): Promise<string | null> {
  const { rows } = await q.query<{ process_key: string | null }>('SELECT process_key FROM consignments WHERE uuid = $1', [uuid]);
  return rows[0]?.process_key ?? null;
}

/** Moves the status from `from` to `to`: the consignment as written, or undefined when its status was not `from` (a retried write, or a race lost). */
export async function moveStatus(tx: Queryable, uuid: string, from: number, to: number): Promise<ConsignmentRecord | undefined> {
  const { rows } = await tx.query<ConsignmentRow>(
    `UPDATE consignments c SET status = $3, updated_at = now() WHERE uuid = $1 AND status = $2 RETURNING ${CONSIGNMENT_COLUMNS}`,
    [uuid, from, to],
  );
  return rows[0] && toRecord(rows[0]);
}

/** One history entry per `eventKey` (a retried write adds none). */
export async function insertHistory(
  tx: Queryable,
  entry: { consignmentId: number; status: number; message: string | null; location?: string | null; eventKey: string; occurredAt?: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO consignment_history (consignment_id, status, message, location, event_key, occurred_at) VALUES ($1, $2, $3, $4, $5, COALESCE($6, now()))
     ON CONFLICT (consignment_id, event_key) DO NOTHING`,
    [entry.consignmentId, entry.status, entry.message, entry.location ?? null, entry.eventKey, entry.occurredAt ?? null],
  );
}

/** The customer's consignments with any of `referenceNos`. */
export async function findByReferences(q: Queryable, customerId: number, referenceNos: string[]): Promise<{ referenceNo: string; uuid: string; id: number }[]> {
  if (referenceNos.length === 0) return [];
  const { rows } = await q.query<{ reference_no: string; uuid: string; id: number }>(
    'SELECT reference_no, uuid, id FROM consignments WHERE customer_id = $1 AND reference_no = ANY($2::text[])',
    [customerId, referenceNos],
  );
  return rows.map((r) => ({ referenceNo: r.reference_no, uuid: r.uuid, id: Number(r.id) }));
}

const REFERENCE_INDEX = 'consignments_customer_reference';

/** Runs a write that may take a reference_no another consignment of the customer has: REFERENCE_USED then. */
export async function referenceGuard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error, REFERENCE_INDEX)) throw referenceUsed();
    throw error;
  }
}
