ALTER TABLE "audit_log" ADD COLUMN "hash_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The chain's hash becomes an HMAC whose key the app keeps outside the database (hash_version 2); entries
-- written before stay version 1 (plain SHA-256) and are anchored by the first HMAC entry after them.
DROP FUNCTION IF EXISTS audit_append(timestamptz, text, integer, text, text, text, text, integer, text, text, text, text);--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_append(
  p_occurred_at timestamptz,
  p_actor text,
  p_actor_user_id integer,
  p_actor_role text,
  p_action text,
  p_resource text,
  p_detail text,
  p_patient_id integer,
  p_client_addr text,
  p_user_agent text,
  p_hashed_rest text,
  p_genesis_hash text,
  p_hmac_inner bytea,
  p_hmac_outer bytea
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  previous text;
  canonical bytea;
BEGIN
  PERFORM pg_advisory_xact_lock(7346001);
  SELECT hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  previous := coalesce(previous, p_genesis_hash);
  canonical := convert_to('["' || previous || '",' || p_hashed_rest, 'UTF8');
  INSERT INTO audit_log (occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id,
    client_addr, user_agent, prev_hash, hash, hash_version)
  VALUES (p_occurred_at, p_actor, p_actor_user_id, p_actor_role, p_action, p_resource, p_detail, p_patient_id,
    p_client_addr, p_user_agent, previous,
    CASE WHEN p_hmac_inner IS NULL THEN encode(sha256(canonical), 'hex')
      ELSE encode(sha256(p_hmac_outer || sha256(p_hmac_inner || canonical)), 'hex') END,
    CASE WHEN p_hmac_inner IS NULL THEN 1 ELSE 2 END);
END
$fn$;
