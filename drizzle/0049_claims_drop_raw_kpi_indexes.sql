-- Claims by submission and adjudication day were indexed for the KPI engine when it computed every figure from
-- the claims themselves. The figures are read from rollups kept in the same transaction as each claim write
-- (docs/kpis.md); only the from-scratch references the rollups are tested and benchmarked against read claims
-- by those days, and they do not need to be fast. Every submission and adjudication of a claim paid for an entry
-- in each, and the scale seed for building them.
DROP INDEX "claims_analytics_submitted_idx";--> statement-breakpoint
DROP INDEX "claims_analytics_adjudicated_idx";
