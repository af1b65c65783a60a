/**
 * A patient's visits as the tables store them, read independently of the server for the statement tests: one row per
 * claim first billed (the visit, its id and charge), with the claims billed after it to the patient's later policies
 * (claims.primary_claim_id, not voided) folded in: every payer's payments and the patient's, each later payer's own
 * adjustment beyond what the earlier payers had settled (prior_payers_cents), and what is due, which is 0 on a claim
 * whose share was billed to the next policy. One level of later claims: the seeds bill at most a second policy.
 * $1 is the patient's id; rows newest first.
 */
export const STORED_VISITS_SQL = `
  with c as (
    select c.id, c.primary_claim_id, c.voided_at, c.service_date, c.status, c.billed_cents, c.paid_cents,
      c.contractual_adjustment_cents, c.prior_payers_cents, c.resolved_on, coalesce(pp.paid, 0)::int as patient_paid,
      (case when exists (select 1 from claims n where n.primary_claim_id = c.id and n.voided_at is null) then 0
        else greatest(0, c.patient_responsibility_cents - coalesce(pp.paid, 0)) end)::int as due
    from claims c
    left join (select claim_id, sum(amount_cents) as paid from payments
               where source in ('patient', 'guest') group by claim_id) pp on pp.claim_id = c.id
    where c.patient_id = $1
  )
  select f.id, f.service_date::text as service_date, f.status, f.billed_cents as billed,
    (f.paid_cents + coalesce(sum(l.paid_cents), 0))::int as payer_paid,
    (f.contractual_adjustment_cents
      + coalesce(sum(greatest(l.contractual_adjustment_cents, l.prior_payers_cents) - l.prior_payers_cents), 0))::int
      as contractual,
    (f.patient_paid + coalesce(sum(l.patient_paid), 0))::int as patient_paid,
    (f.due + coalesce(sum(l.due), 0))::int as due,
    f.resolved_on::text as resolved_on
  from c f left join c l on l.primary_claim_id = f.id and l.voided_at is null
  where f.primary_claim_id is null
  group by f.id, f.service_date, f.status, f.billed_cents, f.paid_cents, f.contractual_adjustment_cents,
    f.patient_paid, f.due, f.resolved_on
  order by f.service_date desc, f.id desc`;

/** A row of STORED_VISITS_SQL. */
export interface StoredVisit extends Record<string, unknown> {
  id: number;
  service_date: string;
  status: string;
  billed: number;
  payer_paid: number;
  contractual: number;
  patient_paid: number;
  due: number;
  resolved_on: string | null;
}
