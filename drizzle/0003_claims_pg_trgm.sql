-- Trigram indexes let the Claims search ("contains", case-insensitive) use an index on a million claims.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
