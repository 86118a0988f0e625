import type { DraftInput, PartyInput } from './draft';
import type { Issue } from './errors';
import { cashOnDelivery } from './special-services';

/** Countries whose addresses need `state_code` (docs/api.md). */
const STATE_CODE_COUNTRIES = new Set(['US', 'CA', 'IE']);
const REQUIRED_PARTY_FIELDS = ['name', 'address', 'city', 'country', 'phone_number'] as const satisfies readonly (keyof PartyInput)[];
const REQUIRED_CUSTOMS_FIELDS = ['description', 'quantity', 'unit_price', 'currency_code', 'origin', 'gtip'] as const;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export function isInternational(draft: DraftInput): boolean {
  const from = draft.consignor?.country;
  const to = draft.consignee?.country;
  return Boolean(from && to && from !== to);
}

/**
 * What a draft needs before a carrier can take it (issue "process draft"): both parties' name, address,
 * city, country and phone; `state_code` in the US, Canada and Ireland; at least one package, each with a
 * weight; a carrier choice; across borders, customs data on every item; a cash-on-delivery service's amount.
 * Every gap, with its field path.
 */
export function processingIssues(draft: DraftInput): Issue[] {
  const issues: Issue[] = [];
  for (const side of ['consignor', 'consignee'] as const) {
    const party = draft[side] ?? {};
    for (const field of REQUIRED_PARTY_FIELDS) if (blank(party[field])) issues.push({ code: 'NOT_BLANK', field: `${side}.${field}` });
    if (party.country && STATE_CODE_COUNTRIES.has(party.country) && blank(party.state_code)) issues.push({ code: 'NOT_BLANK', field: `${side}.state_code` });
  }
  const packages = draft.packages ?? [];
  if (packages.length === 0) issues.push({ code: 'NOT_BLANK', field: 'packages' });
  packages.forEach((p, i) => {
    if (blank(p.weight)) issues.push({ code: 'NOT_BLANK', field: `packages.${i}.weight` });
    else if ((p.weight ?? 0) <= 0) issues.push({ code: 'NOT_POSITIVE', field: `packages.${i}.weight` });
  });
  if (blank(draft.preference) && blank(draft.provider_id)) issues.push({ code: 'NOT_BLANK', field: 'preference' });
  if (draft.preference === 0 && blank(draft.provider_id)) issues.push({ code: 'PREFERENCE_RULE', field: 'provider_id' });
  const { issue: codIssue } = cashOnDelivery(draft);
  if (codIssue) issues.push(codIssue);
  if (isInternational(draft)) {
    packages.forEach((p, i) => {
      const items = p.items ?? [];
      if (items.length === 0) issues.push({ code: 'NOT_BLANK', field: `packages.${i}.items` });
      items.forEach((item, j) => {
        for (const field of REQUIRED_CUSTOMS_FIELDS) if (blank(item[field])) issues.push({ code: 'NOT_BLANK', field: `packages.${i}.items.${j}.${field}` });
      });
    });
  }
  return issues;
}
