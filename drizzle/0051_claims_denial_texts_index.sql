-- A reason code's stored description on the Claims overview was "one denied claim's text, limit 1" with no
-- order: whichever row a plan met first, so the cached and the computed answers (or two plans) could name the
-- same code differently when its claims carry different texts. It is now the newest first-pass denial's text
-- (highest id), read backwards from the end of the code's entries in this index. The reason code index alone
-- does not serve it: for a code that comes from another row (the overview's top reasons) the planner cannot
-- use its order, and walked the primary key backwards instead (1.4 s for five codes at a million claims).
CREATE INDEX "claims_denial_texts_idx" ON "claims" USING btree ("reason_code","id") WHERE denied_on_first_adjudication and denial_description is not null;