-- The current definition of audit_append_batch, last (re)defined by drizzle/0046_audit_append_parse_once.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Appends several entries in their order under one take of the chain's lock: what audit_append does for one,
-- for the entries of PHI reads that arrive while an earlier append is on its way (recordNow in audit.queries.ts
-- groups them), so a busy server commits one chained batch per round trip instead of one entry each.
-- p_lines holds one line per entry, in order: the app's canonical JSON of the entry after its previous hash
-- (hashedRest: occurredAtMs, actor, actorUserId, actorRole, action, resource, detail, patientId and, when
-- known, clientAddr and userAgent, then the closing bracket). JSON text never holds a raw line feed, so the
-- lines split cleanly. Each entry is hashed exactly as audit_append hashes one, over the hash of the entry
-- before it in this batch, and its columns are read from the same text: the app serialises each entry once,
-- and the database parses it once, instead of a second copy of its fields as columns.
-- The chain is computed first (it is sequential: each hash covers the one before), then every row goes in with
-- one INSERT in the batch's order, so the ids follow the chain. OFFSET 0 keeps the parsing subquery a subquery:
-- pulled up into the INSERT's SELECT, each of its ten `e.j->>n` became a parse of the whole line (1,000
-- entries: ~36 -> ~22 ms).
CREATE OR REPLACE FUNCTION audit_append_batch(
  p_lines text,
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
  rests text[];
  prev_hashes text[] := '{}';
  hashes text[] := '{}';
BEGIN
  rests := string_to_array(p_lines, E'\n');
  PERFORM pg_advisory_xact_lock(7346001);
  SELECT hash INTO previous FROM audit_log ORDER BY id DESC LIMIT 1;
  previous := coalesce(previous, p_genesis_hash);
  FOREACH rest IN ARRAY rests LOOP
    canonical := convert_to('["' || previous || '",' || rest, 'UTF8');
    current_hash := CASE WHEN p_hmac_inner IS NULL THEN encode(sha256(canonical), 'hex')
      ELSE encode(sha256(p_hmac_outer || sha256(p_hmac_inner || canonical)), 'hex') END;
    prev_hashes := prev_hashes || previous;
    hashes := hashes || current_hash;
    previous := current_hash;
  END LOOP;
  INSERT INTO audit_log (occurred_at, actor, actor_user_id, actor_role, action, resource, detail, patient_id,
    client_addr, user_agent, prev_hash, hash, hash_version)
  SELECT 'epoch'::timestamptz + (e.j->>0)::bigint * interval '1 millisecond', e.j->>1, (e.j->>2)::integer,
    e.j->>3, e.j->>4, e.j->>5, e.j->>6, (e.j->>7)::integer, e.j->>8, e.j->>9, prev_hashes[e.n], hashes[e.n],
    CASE WHEN p_hmac_inner IS NULL THEN 1 ELSE 2 END
  FROM (SELECT ('[' || r.rest)::jsonb AS j, r.n FROM unnest(rests) WITH ORDINALITY AS r(rest, n) OFFSET 0) AS e
  ORDER BY e.n;
END
$fn$;
