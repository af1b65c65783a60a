import { pgTable, integer, text, boolean } from 'drizzle-orm/pg-core';

export const providers = pgTable('providers', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  specialty: text('specialty').notNull(),
  active: boolean('active').notNull().default(true),
});
