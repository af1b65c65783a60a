ALTER TABLE "audit_log" ADD COLUMN "client_addr" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "user_agent" text;--> statement-breakpoint
-- Every entry records the client's address and user agent; audit_append takes them (the hashed text the app
-- sends covers them when either is known, so the entries written before keep verifying). The old signature is
-- dropped so only one audit_append exists.
DROP FUNCTION IF EXISTS audit_append(timestamptz, text, integer, text, text, text, text, integer, text, text);--> statement-breakpoint
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
  p_genesis_hash text
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  previous text;
BEGIN
  PERFORM pg_advisory_xact_lock(7346001);
  SELECT hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  previous := coalesce(previous, p_genesis_hash);
  INSERT INTO audit_log (occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id,
    client_addr, user_agent, prev_hash, hash)
  VALUES (p_occurred_at, p_actor, p_actor_user_id, p_actor_role, p_action, p_resource, p_detail, p_patient_id,
    p_client_addr, p_user_agent, previous, encode(sha256(convert_to('["' || previous || '",' || p_hashed_rest, 'UTF8')), 'hex'));
END
$fn$;
