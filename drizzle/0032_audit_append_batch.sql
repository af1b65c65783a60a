-- audit_append for several entries under one take of the chain's lock (src/features/audit/server/sql/audit_append_batch.sql):
-- the entries of PHI reads that arrive while an earlier append is on its way are committed together.
CREATE OR REPLACE FUNCTION audit_append_batch(
  p_entries jsonb,
  p_genesis_hash text,
  p_hmac_inner bytea,
  p_hmac_outer bytea
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  previous text;
  current_hash text;
  canonical bytea;
  e jsonb;
BEGIN
  PERFORM pg_advisory_xact_lock(7346001);
  SELECT hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  previous := coalesce(previous, p_genesis_hash);
  FOR e IN SELECT x.value FROM jsonb_array_elements(p_entries) WITH ORDINALITY AS x(value, n) ORDER BY x.n LOOP
    canonical := convert_to('["' || previous || '",' || (e->>'rest'), 'UTF8');
    current_hash := CASE WHEN p_hmac_inner IS NULL THEN encode(sha256(canonical), 'hex')
      ELSE encode(sha256(p_hmac_outer || sha256(p_hmac_inner || canonical)), 'hex') END;
    INSERT INTO audit_log (occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id,
      client_addr, user_agent, prev_hash, hash, hash_version)
    VALUES ((e->>'occurredAt')::timestamptz, e->>'actor', (e->>'actorUserId')::integer, e->>'actorRole', e->>'action',
      e->>'resource', e->>'detail', (e->>'patientId')::integer, e->>'clientAddr', e->>'userAgent', previous,
      current_hash, CASE WHEN p_hmac_inner IS NULL THEN 1 ELSE 2 END);
    previous := current_hash;
  END LOOP;
END
$fn$;
