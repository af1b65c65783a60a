import { and, eq, gte, inArray, like, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { containsPattern } from '@/server/db/like';
import { patients } from '@/features/patients/server/patients.table';
import { providers } from '@/features/providers/server/providers.table';
import { CARC_GROUPS, PAYERS, parseReasonFilter, type ClaimFilter } from '../claims.schema';
import { claims, claimSearchText } from './claims.table';

/** The columns of a claims rollup that a filter can be written against; both claims rollups have them. */
export interface ClaimsRollupColumns {
  payer: AnyPgColumn;
  reasonCode: AnyPgColumn;
}

/**
 * One field of the claims filter. Its conditions on the claims table and on the rollups sit side by side
 * so they cannot drift apart, and its samples let the raw-vs-rollup test compare every field.
 */
interface ClaimFilterField<Value extends string | number> {
  /** The field's condition on the claims table. */
  raw: (value: Value) => SQL | undefined;
  /** The same condition on a rollup's columns, or null when the rollups do not hold what it matches. */
  rollup: ((value: Value, rollup: ClaimsRollupColumns) => SQL | undefined) | null;
  /** How the export's audit entry names the field's value. */
  detail: (value: Value) => string;
  /**
   * Values that narrow the claims, as a query string carries them, for the test that compares the rollups'
   * answers with the raw ones.
   */
  samples: readonly string[];
}

/** Every field of ClaimFilter must be declared here (the mapped type makes a missing one a type error). */
export const CLAIM_FILTER_FIELDS: {
  readonly [Field in keyof ClaimFilter]-?: ClaimFilterField<NonNullable<ClaimFilter[Field]>>;
} = {
  payer: {
    raw: (payer) => eq(claims.payer, payer),
    rollup: (payer, r) => eq(r.payer, payer),
    detail: (payer) => `payer ${payer}`,
    samples: ['Aetna', 'Medicare'],
  },
  reason: {
    raw: (text) => reasonCondition(text, claims.reasonCode),
    rollup: (text, r) => reasonCondition(text, r.reasonCode),
    detail: (text) => `reason "${text}"`,
    samples: ['CO', '197', 'pr-2'],
  },
  // The rollups keep neither status, provider nor service date together with payer and reason, so these
  // are answered from the claims themselves, each through an index that starts with it (claims.table.ts).
  status: {
    raw: (status) => eq(claims.status, status),
    rollup: null,
    detail: (status) => `status ${status}`,
    samples: ['Denied', 'Paid'],
  },
  providerId: {
    raw: (id) => eq(claims.providerId, id),
    rollup: null,
    detail: (id) => `provider #${id}`,
    samples: ['1'],
  },
  patientId: {
    raw: (id) => eq(claims.patientId, id),
    rollup: null,
    detail: (id) => `patient #${id}`,
    samples: ['1'],
  },
  from: {
    raw: (day) => gte(claims.serviceDate, day),
    rollup: null,
    detail: (day) => `served from ${day}`,
    samples: ['2026-09-01'],
  },
  to: {
    raw: (day) => lte(claims.serviceDate, day),
    rollup: null,
    detail: (day) => `served to ${day}`,
    samples: ['2026-09-01'],
  },
  // The rollups keep no names or account numbers, so a search is answered from the claims themselves.
  search: {
    raw: searchCondition,
    rollup: null,
    detail: (text) => `search "${text}"`,
    samples: ['an'],
  },
};

const FIELD_NAMES = Object.keys(CLAIM_FILTER_FIELDS) as (keyof ClaimFilter)[];

/** A field the filter sets, with its value applied. */
interface SetField {
  raw: SQL | undefined;
  rollup: ((rollup: ClaimsRollupColumns) => SQL | undefined) | null;
  detail: string;
}

/** The field `name` of the filter as a one-item list, or none when it is absent or empty text. */
function setField(filter: ClaimFilter, name: keyof ClaimFilter): SetField[] {
  const value = filter[name];
  if (value === undefined || value === '') return [];
  // TypeScript cannot pair a field's declaration with its value's type across the union of fields;
  // `value` is read from the same field, so it is of the type the declaration takes.
  const { raw, rollup, detail } = CLAIM_FILTER_FIELDS[name] as unknown as ClaimFilterField<string | number>;
  return [{ raw: raw(value), rollup: rollup && ((r) => rollup(value, r)), detail: detail(value) }];
}

/** The fields the filter sets, in declaration order. */
function setFields(filter: ClaimFilter): SetField[] {
  return FIELD_NAMES.flatMap((name) => setField(filter, name));
}

/** The filter's condition on the claims table; undefined when it narrows nothing. */
export function claimsWhere(filter: ClaimFilter): SQL | undefined {
  return and(...setFields(filter).map((field) => field.raw));
}

/**
 * The filter's condition on a claims rollup (undefined when it narrows nothing), or null when it sets a
 * field the rollups cannot answer: then only the claims table can.
 */
export function claimsRollupWhere(filter: ClaimFilter, rollup: ClaimsRollupColumns): SQL | undefined | null {
  const conditions: (SQL | undefined)[] = [];
  for (const field of setFields(filter)) {
    if (field.rollup === null) return null;
    conditions.push(field.rollup(rollup));
  }
  return and(...conditions);
}

/** The filter in words for an audit entry, e.g. ` (payer Aetna, reason "CO")`; '' when it narrows nothing. */
export function claimFilterDetail(filter: ClaimFilter): string {
  const parts = setFields(filter).map((field) => field.detail);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** 'CO 197', 'co-197' and 'CO197' match CO-197; '197' matches that number in any group; 'CO' every CO code. */
function reasonCondition(text: string, reasonCode: AnyPgColumn): SQL | undefined {
  const parsed = text === '' ? null : parseReasonFilter(text);
  if (!parsed) return undefined;
  const { group, number } = parsed;
  if (group && number) return eq(reasonCode, `${group}-${number}`);
  if (number)
    return inArray(
      reasonCode,
      CARC_GROUPS.map((g) => `${g}-${number}`),
    );
  return like(reasonCode, `${group}-%`);
}

/**
 * The search keys are patient, payer, account number, procedure, provider and reason, case-insensitive
 * "contains". Written as a union of index-served lookups (the claim's codes through their trigram index,
 * the payers whose names match through the payer index, patients and providers by name through their
 * claims), so a million claims are not scanned row by row.
 */
function searchCondition(search: string): SQL | undefined {
  if (search === '') return undefined;
  const pattern = containsPattern(search);
  const payers = PAYERS.filter((payer) => payer.toLowerCase().includes(search.toLowerCase()));
  const c = alias(claims, 'search_claim');
  const p = alias(patients, 'search_patient');
  const v = alias(providers, 'search_provider');
  // Drizzle names an alias but does not declare it: each FROM says which table it stands for.
  const fromC = sql`${claims} as ${sql.identifier('search_claim')}`;
  const fromP = sql`${patients} as ${sql.identifier('search_patient')}`;
  const fromV = sql`${providers} as ${sql.identifier('search_provider')}`;
  const byPayer = payers.length > 0 ? sql`union select ${c.id} from ${fromC} where ${inArray(c.payer, payers)}` : sql``;
  return sql`${claims.id} in (
    select ${c.id} from ${fromC} where ${claimSearchText(c)} ilike ${pattern}
    ${byPayer}
    union
    select ${c.id} from ${fromC} join ${fromP} on ${p.id} = ${c.patientId} where ${p.name} ilike ${pattern}
    union
    select ${c.id} from ${fromC} join ${fromV} on ${v.id} = ${c.providerId} where ${v.name} ilike ${pattern})`;
}
