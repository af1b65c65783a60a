-- The claims checks say what they said before (a CARC reason code; a two-digit place of service) without regular
-- expressions, which cost every claim write more than the rest of its checks (src/features/claims/server/claims.table.ts).
ALTER TABLE "claims" DROP CONSTRAINT "claims_reason_check";--> statement-breakpoint
ALTER TABLE "claims" DROP CONSTRAINT "claims_place_of_service_check";--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_reason_check" CHECK ("claims"."reason_code" is null or (left("claims"."reason_code", 3) in ('CO-', 'PR-', 'OA-', 'PI-', 'CR-')
        and octet_length("claims"."reason_code") between 4 and 7
        and ltrim(substr("claims"."reason_code", 4), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') = ''));--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_place_of_service_check" CHECK (octet_length("claims"."place_of_service") = 2 and ltrim("claims"."place_of_service", '0123456789') = '');