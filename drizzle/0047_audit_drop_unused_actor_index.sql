-- No query looks audit entries up by actor equality: the audit list's actor filter is a substring match
-- (ILIKE '%…%'), which a btree cannot serve, and "my own entries" go by actor_user_id. The index only cost
-- every append an insert into a btree whose keys are a handful of repeated e-mail addresses.
DROP INDEX "audit_log_actor_idx";
