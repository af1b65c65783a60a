-- The current definition of audit_append, last (re)defined by drizzle/0020_audit_hmac.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Takes the audit chain's lock, reads the newest hash and inserts the chained entry in one statement, so the
-- lock is held inside PostgreSQL only (and, in a transaction with a change, for the one round trip to COMMIT):
-- held across round trips to the app server, it queued the pooled connections behind it under load.
-- The hash is the same as audit.queries.ts's entryHash: SHA-256 of the canonical JSON text
-- ["<prev hash>",<rest>] where the app sends <rest> (the JSON of the hashed fields after the previous hash,
-- without its opening bracket), so the app's verification recomputes exactly what is stored here.
-- In READ COMMITTED each statement of a volatile PL/pgSQL function takes a new snapshot: the newest hash is
-- read after the lock is granted, so it sees the entry the previous holder committed.
-- The client's address and user agent are stored as sent; the app's <rest> covers them when either is known.
-- With the app's HMAC key (never stored in the database) the app sends RFC 2104's padded keys, and the hash is
-- HMAC-SHA-256 of the same text (hash_version 2), so rows rewritten in SQL cannot be given hashes that verify.
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
