-- The posting ledger and the provider adjustments are append-only (src/features/remittances/server/sql/remittances_refuse_change.sql).
CREATE OR REPLACE FUNCTION remittances_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER remittance_ledger_append_only BEFORE UPDATE OR DELETE ON remittance_ledger
  FOR EACH ROW EXECUTE FUNCTION remittances_refuse_change();
--> statement-breakpoint
CREATE TRIGGER provider_adjustments_append_only BEFORE UPDATE OR DELETE ON provider_adjustments
  FOR EACH ROW EXECUTE FUNCTION remittances_refuse_change();
--> statement-breakpoint
-- The work queue comes before claims in the feature order (claims open items), so its table is declared without
-- the reference to claims; the database still keeps it.
ALTER TABLE work_items ADD CONSTRAINT work_items_claim_id_claims_id_fk FOREIGN KEY (claim_id) REFERENCES claims(id) ON DELETE CASCADE;
--> statement-breakpoint
-- Medicare's redetermination is due within 120 days of the remittance; the others keep the common 180.
UPDATE payers SET appeal_days = 120 WHERE name = 'Medicare';
--> statement-breakpoint
-- The change feed (migration 0012): every new table notifies its changes.
DO $do$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['remittances', 'remittance_claims', 'remittance_ledger', 'provider_adjustments',
    'work_items', 'work_item_notes', 'work_assignment_rules'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change()',
      t || '_notify_change', t);
  END LOOP;
END
$do$;
