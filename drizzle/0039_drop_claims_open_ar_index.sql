-- claims_analytics_open_ar_idx (service_date, on the open claims) is covered by claims_open_service_date_idx
-- (service_date desc, id, on the same claims): every query that used it reads that one as fast or faster
-- (an index-only scan, since it holds the id), and every write of a claim paid for one more index entry.
DROP INDEX "claims_analytics_open_ar_idx";
