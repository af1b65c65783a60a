-- audit_append_batch computes the batch's chain first and inserts its rows with one INSERT in their order
-- (src/features/audit/server/sql/audit_append_batch.sql): the same rows and hashes for less database CPU per entry.
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
  rest text;
  prev_hashes text[] := '{}';
  hashes text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(7346001);
  SELECT hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  previous := coalesce(previous, p_genesis_hash);
  FOR rest IN SELECT x.value->>'rest' FROM jsonb_array_elements(p_entries) WITH ORDINALITY AS x(value, n) ORDER BY x.n LOOP
    canonical := convert_to('["' || previous || '",' || rest, 'UTF8');
    current_hash := CASE WHEN p_hmac_inner IS NULL THEN encode(sha256(canonical), 'hex')
      ELSE encode(sha256(p_hmac_outer || sha256(p_hmac_inner || canonical)), 'hex') END;
    prev_hashes := prev_hashes || previous;
    hashes := hashes || current_hash;
    previous := current_hash;
  END LOOP;
  INSERT INTO audit_log (occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id,
    client_addr, user_agent, prev_hash, hash, hash_version)
  SELECT e."occurredAt", e.actor, e."actorUserId", e."actorRole", e.action, e.resource, e.detail, e."patientId",
    e."clientAddr", e."userAgent", prev_hashes[e.n], hashes[e.n], CASE WHEN p_hmac_inner IS NULL THEN 1 ELSE 2 END
  FROM ROWS FROM (jsonb_to_recordset(p_entries) AS ("occurredAt" timestamptz, actor text, "actorUserId" integer,
    "actorRole" text, action text, resource text, detail text, "patientId" integer, "clientAddr" text,
    "userAgent" text)) WITH ORDINALITY
    AS e("occurredAt", actor, "actorUserId", "actorRole", action, resource, detail, "patientId", "clientAddr",
      "userAgent", n)
  ORDER BY e.n;
END
$fn$;
