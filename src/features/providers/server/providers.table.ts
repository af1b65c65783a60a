import { sql } from 'drizzle-orm';
import { pgTable, integer, text, boolean, check, uniqueIndex } from 'drizzle-orm/pg-core';

export const providers = pgTable(
  'providers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    specialty: text('specialty').notNull(),
    active: boolean('active').notNull().default(true),
    /** The provider's individual NPI (CMS): the rendering provider of their claims (X12 837P loop 2310B). */
    npi: text('npi'),
    /** Health Care Provider Taxonomy code (NUCC), e.g. 207Q00000X family medicine. */
    taxonomyCode: text('taxonomy_code'),
  },
  (t) => [
    uniqueIndex('providers_npi_unique')
      .on(t.npi)
      .where(sql`${t.npi} is not null`),
    check('providers_npi_check', sql`${t.npi} is null or ${t.npi} ~ '^[12][0-9]{9}$'`),
    check('providers_taxonomy_check', sql`${t.taxonomyCode} is null or ${t.taxonomyCode} ~ '^[0-9]{3}[0-9A-Z]{6}X$'`),
  ],
);
