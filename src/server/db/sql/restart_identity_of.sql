-- The current definition of restart_identity_of, last (re)defined by drizzle/0024_app_role_identity_restart.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- The app connects as a role that owns no table (docs/security.md, "Database roles"). TRUNCATE ... RESTART
-- IDENTITY and ALTER SEQUENCE ... RESTART need the sequences' owner, so an admin's reset restarts the ids of
-- the tables it emptied through this function, which runs as the owner. It restarts nothing but an empty
-- table's id sequence (ids restarted under existing rows would collide), and never the audit trail's. Unlike
-- setval, ALTER SEQUENCE ... RESTART is undone when the transaction rolls back.
CREATE OR REPLACE FUNCTION restart_identity_of(target regclass) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  has_rows boolean;
  sequence_name text;
BEGIN
  IF target = 'audit_log'::regclass THEN
    RAISE EXCEPTION 'the audit trail''s ids never restart' USING ERRCODE = 'insufficient_privilege';
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', target) INTO has_rows;
  IF has_rows THEN
    RAISE EXCEPTION 'the ids of % restart only when it is empty', target USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  -- Tables without an id column (sessions are keyed by token) have no sequence to restart.
  IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = target AND attname = 'id' AND NOT attisdropped) THEN
    sequence_name := pg_get_serial_sequence(target::text, 'id');
  END IF;
  IF sequence_name IS NOT NULL THEN
    EXECUTE format('ALTER SEQUENCE %s RESTART', sequence_name);
  END IF;
END $$;
