-- The Claims list sorted by provider walks each provider's claims by service date through claims_provider_service_date_idx
-- (docs/paging.md), so the (provider_id, id) index only cost each claim write an entry.
DROP INDEX "claims_provider_idx";