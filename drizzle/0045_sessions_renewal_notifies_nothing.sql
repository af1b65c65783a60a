-- App servers keep session rows in memory until the change feed says sessions changed (docs/caching.md).
-- The idle timer's renewal (an UPDATE of last_seen_at alone, every 30 s of each active session) and a new
-- session (no cached row can be stale because of it) no longer notify: under load they ended every cached
-- session on every server several times a second. A session ended (DELETE, TRUNCATE) or any other change
-- to a row still notifies. A cached row's last_seen_at may then lag: resolveSession reads a session that
-- looks idle again before ending it.
DROP TRIGGER sessions_notify_change ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_notify_change AFTER DELETE OR TRUNCATE OR UPDATE OF id_hash, user_id, csrf_token, created_at, expires_at
  ON sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
