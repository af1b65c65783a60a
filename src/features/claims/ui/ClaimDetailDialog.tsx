import { useState, type ReactNode } from 'react';
import { formatDollars } from '@/shared/api';
import { Ban, CircleSlash, FilePen, FilePlus2, Gavel, Pencil, ShieldCheck } from 'lucide-react';
import { countOf } from '@/shared/plural';
import { formatDate } from '@/shared/dates';
import { dayInZone } from '@/shared/practice-zone';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/client/components/ui/dialog';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { errorTextFor } from '@/client/lib/error-text';
import { statusVariant } from '@/client/lib/status-variant';
import {
  canCorrect,
  canVoidAtPayer,
  canWriteOff,
  isAppealable,
  scrubRequestSchema,
  type ClaimDetail,
  type ClaimHistoryEvent,
  type ClaimLink,
  type ClaimScrubResult,
} from '../claims.schema';
import { AppealDialog } from './AppealDialog';
import { ClaimFormDialog } from './ClaimFormDialog';
import { CorrectClaimDialog } from './CorrectClaimDialog';
import { VoidAtPayerDialog } from './VoidAtPayerDialog';
import { WriteOffClaimDialog } from './WriteOffClaimDialog';
import { momentText } from '@/client/lib/moment-text';
import { frequencyText, placeOfServiceText, priorityText } from './claim-format';
import { useBillNextPolicy, useClaimDetail, useScrubClaim } from './claims.api';
import { ELIGIBILITY_STATE_LABELS, type EligibilityBrief } from '@/features/coverage/coverage.eligibility.schema';

type ScrubEdit = ClaimScrubResult['edits'][number];

/** Only a claim not yet sent can be changed or scrubbed (the server refuses the others with a 409). */
const EDITABLE = ['Draft', 'Ready'];

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[11rem_1fr] gap-2 py-0.5">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function SeverityBadge({ severity }: { severity: ScrubEdit['severity'] }) {
  return severity === 'error' ? <Badge variant="destructive">Error</Badge> : <Badge variant="warning">Warning</Badge>;
}

/** Errors first: they are what holds the claim. */
function Findings({ edits, label }: { edits: ScrubEdit[]; label: string }) {
  if (edits.length === 0) return <p className="text-sm text-muted-foreground">No findings</p>;
  const ordered = [...edits].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return (
    <ul className="grid gap-1.5" aria-label={label}>
      {ordered.map((edit, i) => (
        <li key={`${edit.code}-${edit.field}-${i}`} className="flex flex-wrap items-baseline gap-2 text-sm">
          <SeverityBadge severity={edit.severity} />
          <span>{edit.message}</span>
          <span className="font-mono text-xs text-muted-foreground">{edit.field}</span>
        </li>
      ))}
    </ul>
  );
}

function Header({ claim }: { claim: ClaimDetail }) {
  const frequency =
    claim.originalClaimNumber && claim.frequencyCode !== '1'
      ? `${frequencyText(claim.frequencyCode)} of claim ${claim.originalClaimNumber}`
      : frequencyText(claim.frequencyCode);
  return (
    <Section id="claim-view-header" title="Claim">
      <div className="grid gap-x-8 md:grid-cols-2">
        <dl>
          <Item term="Patient control number">
            <span className="font-mono">{claim.accountNumber}</span>
          </Item>
          <Item term="Status">
            <Badge variant={statusVariant(claim.status)} title={claim.denialDescription ?? undefined}>
              {claim.status}
            </Badge>
            {claim.reason && (
              <span className="ml-2 text-muted-foreground">
                {claim.reason}
                {claim.denialDescription ? `: ${claim.denialDescription}` : ''}
              </span>
            )}
          </Item>
          <Item term="Patient">{claim.patient.name}</Item>
          <Item term="MRN">{claim.patient.mrn}</Item>
          <Item term="Date of birth">{formatDate(claim.patient.dob)}</Item>
          <Item term="Rendering provider">
            {claim.provider.name}
            <span className="text-muted-foreground">
              {claim.provider.npi ? ` · NPI ${claim.provider.npi}` : ' · no NPI on file'}
            </span>
          </Item>
          {claim.referringProvider && (
            <Item term="Referring provider">
              {claim.referringProvider.name}
              <span className="text-muted-foreground"> · NPI {claim.referringProvider.npi}</span>
            </Item>
          )}
          <Item term="Payer">{claim.payer}</Item>
          <Item term="Place of service">{placeOfServiceText(claim.placeOfService)}</Item>
          <Item term="Frequency">{frequency}</Item>
          <Item term="Service date">{formatDate(claim.serviceDate)}</Item>
          {claim.submittedOn && <Item term="Submitted">{formatDate(claim.submittedOn)}</Item>}
        </dl>
        <dl>
          <Item term="Billed">{formatDollars(claim.billedCents)}</Item>
          <Item term="Paid">{formatDollars(claim.paidCents)}</Item>
          <Item term="Adjustments">{formatDollars(claim.contractualAdjustmentCents)}</Item>
          <Item term="Patient responsibility">{formatDollars(claim.patientResponsibilityCents)}</Item>
          <Item term="Balance">
            <span className="font-semibold">{formatDollars(claim.balanceCents)}</span>
          </Item>
        </dl>
      </div>
    </Section>
  );
}

/** What the latest 271 said of the claim's service date, and when the payer answered. */
function eligibilityText(e: EligibilityBrief): string {
  const label = ELIGIBILITY_STATE_LABELS[e.state];
  const checked = e.checkedAt ? `, checked ${formatDate(dayInZone(new Date(e.checkedAt)))}` : '';
  return `${label}${checked}${e.detail ? ` (${e.detail})` : ''}`;
}

function CoverageSection({ coverage }: { coverage: ClaimDetail['coverage'] }) {
  return (
    <Section id="claim-view-coverage" title="Coverage">
      {coverage ? (
        <dl>
          <Item term="Payer">{coverage.payer}</Item>
          <Item term="Priority">{priorityText(coverage.priority)}</Item>
          <Item term="Member ID">
            <span className="font-mono">{coverage.memberId}</span>
          </Item>
          <Item term="Group">{coverage.groupNumber ?? 'None'}</Item>
          <Item term="Relationship">
            {coverage.relationship.charAt(0).toUpperCase() + coverage.relationship.slice(1)}
          </Item>
          <Item term="Subscriber">
            {coverage.subscriberName ?? (coverage.relationship === 'self' ? 'The patient' : 'Not recorded')}
          </Item>
          {coverage.eligibility && (
            <Item term="Eligibility on the service date">{eligibilityText(coverage.eligibility)}</Item>
          )}
        </dl>
      ) : (
        <p className="text-sm text-muted-foreground">Self-pay: no insurance is billed.</p>
      )}
    </Section>
  );
}

/** A claim of the same visit, opened in this view by its patient control number. */
function ClaimLinkButton({ link, onOpen }: { link: ClaimLink; onOpen: (link: ClaimLink) => void }) {
  return (
    <Button variant="link" size="sm" className="h-auto p-0 font-mono" onClick={() => onOpen(link)}>
      {link.accountNumber}
    </Button>
  );
}

/**
 * The visit's claims across the patient's policies: the one this claim bills after, those billed after it, and
 * the next policy its balance can go to once the payer billed has adjudicated it.
 */
function PoliciesSection({
  claim,
  canWrite,
  onOpen,
}: {
  claim: ClaimDetail;
  canWrite: boolean;
  onOpen: (link: ClaimLink) => void;
}) {
  const bill = useBillNextPolicy();
  const next = claim.nextPolicy;
  if (!claim.primaryClaim && claim.laterClaims.length === 0 && !next) return null;
  const run = () =>
    bill.mutate(claim.id, {
      onSuccess: (made) => {
        toast({
          title: 'Claim created',
          description: `Claim ${made.accountNumber} bills ${made.payer} for the balance. Scrub it before sending.`,
        });
        onOpen({ id: made.id, accountNumber: made.accountNumber, payer: made.payer });
      },
      onError: (error) => {
        toast({ title: 'Claim not created', description: errorTextFor(error), variant: 'destructive' });
      },
    });
  return (
    <Section id="claim-view-policies" title="Other policies">
      <dl>
        {claim.primaryClaim && (
          <Item term="Billed after">
            {claim.primaryClaim.payer}&apos;s adjudication of{' '}
            <ClaimLinkButton link={claim.primaryClaim} onOpen={onOpen} />
          </Item>
        )}
        {claim.primaryClaim && claim.priorPayersCents > 0 && (
          // Why the balance is not the whole charge: what the earlier payers settled is not owed here.
          <Item term="Settled by earlier payers">{formatDollars(claim.priorPayersCents)}</Item>
        )}
        {claim.laterClaims.map((later) => (
          <Item key={later.id} term="Billed next">
            {later.payer} as <ClaimLinkButton link={later} onOpen={onOpen} />
            {claim.handedOnCents > 0 && `, for ${formatDollars(claim.handedOnCents)}`}
          </Item>
        ))}
        {next && claim.laterClaims.length === 0 && (
          <Item term="Next policy">
            {next.payer}
            {!next.billable && next.reason && <span className="text-muted-foreground">: {next.reason}</span>}
          </Item>
        )}
      </dl>
      {canWrite && next?.billable && (
        <Button variant="outline" size="sm" className="mt-2" onClick={run} disabled={bill.isPending}>
          <FilePlus2 className="size-4" aria-hidden="true" />{' '}
          {bill.isPending ? 'Creating…' : `Bill ${next.payer} for the balance`}
        </Button>
      )}
    </Section>
  );
}

function DiagnosesSection({ diagnoses }: { diagnoses: string[] }) {
  return (
    <Section id="claim-view-diagnoses" title="Diagnoses">
      {diagnoses.length === 0 ? (
        <p className="text-sm text-muted-foreground">No diagnoses recorded.</p>
      ) : (
        // The list's numbers are the pointers the lines use.
        <ol className="list-decimal pl-6 font-mono text-sm" aria-label="Diagnoses (ICD-10-CM)">
          {diagnoses.map((code, i) => (
            <li key={`${code}-${i}`}>{code}</li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function LinesSection({ claim }: { claim: ClaimDetail }) {
  const pointed = (pointer: number) => claim.diagnoses[pointer - 1] ?? `#${pointer} (no such diagnosis)`;
  const total = claim.lines.reduce((sum, line) => sum + line.chargeCents, 0);
  return (
    <Section id="claim-view-lines" title="Service lines">
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">Service lines</caption>
          <thead>
            <tr className="border-b border-border text-left text-muted-foreground">
              <th scope="col" className="px-2 py-1.5 font-medium">
                Line
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Procedure
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Modifiers
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Units
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Charge
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Diagnoses
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Service date
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Line control number
              </th>
            </tr>
          </thead>
          <tbody>
            {claim.lines.map((line) => (
              <tr key={line.lineNumber} className="border-b border-border align-top">
                <th scope="row" className="px-2 py-1.5 text-left font-normal tabular-nums">
                  {line.lineNumber}
                </th>
                <td className="px-2 py-1.5">
                  <span className="font-mono">{line.procedureCode}</span>
                  {line.description && <span className="block text-xs text-muted-foreground">{line.description}</span>}
                </td>
                <td className="px-2 py-1.5 font-mono">{line.modifiers.length > 0 ? line.modifiers.join(', ') : '—'}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{line.units}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatDollars(line.chargeCents)}</td>
                <td className="px-2 py-1.5 font-mono">{line.diagnosisPointers.map(pointed).join(', ')}</td>
                <td className="px-2 py-1.5 whitespace-nowrap">{formatDate(line.serviceDate)}</td>
                <td className="px-2 py-1.5 font-mono text-xs">{line.lineControlNumber}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4} className="px-2 py-1.5 text-right font-medium">
                Total
              </th>
              <td className="px-2 py-1.5 text-right font-semibold tabular-nums">{formatDollars(total)}</td>
              <td colSpan={3} />
            </tr>
          </tfoot>
        </table>
      </div>
    </Section>
  );
}

function HistoryItem({ event }: { event: ClaimHistoryEvent }) {
  return (
    <li className="rounded-md border border-border p-2.5 text-sm">
      <p>
        <time dateTime={event.at} className="text-muted-foreground">
          {momentText(event.at)}
        </time>{' '}
        <span className="font-medium">{event.title}</span>
        {event.by && <span className="text-muted-foreground"> by {event.by}</span>}
      </p>
      {event.detail && <p>{event.detail}</p>}
      {event.kind === 'scrub' && event.edits.length > 0 && (
        <div className="mt-1.5">
          <Findings edits={event.edits} label={`Findings of the scrub on ${momentText(event.at)}`} />
        </div>
      )}
    </li>
  );
}

/** What a scrub decided, in one sentence read out as it appears. */
function verdict(result: ClaimScrubResult): string {
  const errors = result.edits.filter((e) => e.severity === 'error').length;
  const warnings = result.edits.length - errors;
  if (result.status === 'Ready') {
    return result.overrideReason
      ? `Ready to submit: ${countOf(warnings, 'warning')} accepted (${result.overrideReason}).`
      : 'Ready to submit.';
  }
  if (errors > 0)
    return `Held: ${countOf(errors, 'error')} to fix${warnings > 0 ? `, ${countOf(warnings, 'warning')}` : ''}.`;
  return `Held: ${countOf(warnings, 'warning')} to accept with a reason, or fix.`;
}

/** The scrub's toast; warnings alone say so in place, where the reason is asked for. */
function announce(result: ClaimScrubResult) {
  const errors = result.edits.filter((e) => e.severity === 'error').length;
  if (result.status === 'Ready') {
    toast({ title: 'Claim is ready to submit', description: `Claim ${result.accountNumber} is Ready.` });
  } else if (errors > 0) {
    toast({
      title: `Claim held: ${countOf(errors, 'error')}`,
      description: `Claim ${result.accountNumber} stays Draft until they are fixed.`,
      variant: 'destructive',
    });
  }
}

/** The latest findings, the Scrub result in place of them once run, and the reason that accepts warnings. */
function ScrubSection({ claim, canScrub }: { claim: ClaimDetail; canScrub: boolean }) {
  const scrub = useScrubClaim();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const result = scrub.data?.claimId === claim.id ? scrub.data : undefined;
  const latest = result ? { at: result.scrubbedAt, edits: result.edits } : claim.lastScrub;
  const status = result?.status ?? claim.status;
  const onlyWarnings =
    latest !== null && latest.edits.length > 0 && latest.edits.every((e) => e.severity === 'warning');

  const run = (overrideReason?: string) =>
    scrub.mutate(
      { id: claim.id, ...(overrideReason === undefined ? {} : { overrideReason }) },
      {
        onSuccess: (done) => {
          announce(done);
          if (done.status === 'Ready') {
            setAsking(false);
            setReason('');
          }
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.fields.find((f) => f.field === 'overrideReason') : undefined;
          if (field) return setReasonError(field.message);
          toast({ title: 'Scrub failed', description: errorTextFor(error), variant: 'destructive' });
        },
      },
    );

  const sendWithWarnings = () => {
    const checked = scrubRequestSchema.safeParse({ overrideReason: reason });
    if (!checked.success) return setReasonError(checked.error.issues[0]?.message);
    setReasonError(undefined);
    run(checked.data.overrideReason);
  };

  return (
    <Section id="claim-view-scrub" title="Scrub findings">
      {canScrub && (
        <div>
          <Button variant="outline" size="sm" onClick={() => run()} disabled={scrub.isPending}>
            <ShieldCheck className="size-4" aria-hidden="true" /> {scrub.isPending ? 'Scrubbing…' : 'Scrub'}
          </Button>
        </div>
      )}
      <div role="status" className="text-sm font-medium">
        {result ? verdict(result) : ''}
      </div>
      {latest === null ? (
        <p className="text-sm text-muted-foreground">Not scrubbed yet.</p>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">Scrubbed {momentText(latest.at)}</p>
          <Findings edits={latest.edits} label="Latest scrub findings" />
        </>
      )}
      {canScrub && onlyWarnings && status === 'Draft' && (
        <div className="rounded-md border border-border p-3">
          {asking ? (
            <form
              noValidate
              className="grid gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                sendWithWarnings();
              }}
            >
              <FormField
                id="claim-override-reason"
                label="Reason for sending with warnings"
                error={reasonError}
                hint="5 to 500 characters; kept in the audit trail."
              >
                {(control) => (
                  <Input
                    {...control}
                    autoFocus
                    autoComplete="off"
                    maxLength={500}
                    value={reason}
                    onChange={(event) => {
                      setReason(event.target.value);
                      setReasonError(undefined);
                    }}
                  />
                )}
              </FormField>
              <div className="flex gap-2">
                <Button type="submit" size="sm" disabled={scrub.isPending}>
                  {scrub.isPending ? 'Sending…' : 'Send with warnings'}
                </Button>
                <Button variant="outline" size="sm" onClick={() => setAsking(false)} disabled={scrub.isPending}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-sm">Only warnings: the claim can be sent once a reason accepts them.</p>
              <Button size="sm" variant="outline" onClick={() => setAsking(true)}>
                Send with warnings
              </Button>
            </div>
          )}
        </div>
      )}
    </Section>
  );
}

/** A claim the clearinghouse or payer sent back: why, and that it is to be fixed and sent again. */
function RejectionNotice({ claim }: { claim: ClaimDetail }) {
  const latest = claim.submissions.at(-1);
  if (!latest || latest.outcome !== 'Rejected' || claim.status !== 'Draft') return null;
  const by = latest.answeredBy === '999' ? 'the clearinghouse (999)' : 'the payer (277CA)';
  return (
    <div
      role="alert"
      aria-label="Claim rejected"
      className="grid gap-1 rounded-md border border-destructive p-3 text-sm"
    >
      <p className="font-medium text-destructive">
        Rejected by {by}
        {latest.answeredAt ? ` on ${momentText(latest.answeredAt)}` : ''} (batch {latest.batchId})
      </p>
      <p>{latest.message}</p>
      <p className="text-muted-foreground">
        The rejected submission does not count as filed: fix the claim, scrub it and send it in a new batch.
      </p>
    </div>
  );
}

function answerText(submission: ClaimDetail['submissions'][number]): string {
  if (submission.outcome === 'Accepted') return `Accepted (${submission.answeredBy ?? ''})`;
  if (submission.outcome === 'Rejected') return `Rejected (${submission.answeredBy ?? ''})`;
  return 'Awaiting an answer';
}

/** Each time the claim was sent in a batch and what came back: its filing history. */
function SubmissionsSection({ submissions }: { submissions: ClaimDetail['submissions'] }) {
  return (
    <Section id="claim-view-submissions" title="Submissions">
      {submissions.length === 0 ? (
        <p className="text-sm text-muted-foreground">Not sent yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Submissions</caption>
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Batch
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Sent
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Payer
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Answer
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {submissions.map((s) => (
                <tr key={s.batchId} className="border-b border-border align-top">
                  <th scope="row" className="px-2 py-1.5 text-left font-normal tabular-nums">
                    {s.batchId}
                  </th>
                  <td className="px-2 py-1.5 whitespace-nowrap">{momentText(s.sentAt)}</td>
                  <td className="px-2 py-1.5">{s.payer}</td>
                  <td className="px-2 py-1.5 whitespace-nowrap">{answerText(s)}</td>
                  <td className="px-2 py-1.5">
                    {s.message ?? s.note ?? ''}
                    {s.payerClaimNumber && (
                      <span className="block text-xs text-muted-foreground">
                        Payer claim number <span className="font-mono">{s.payerClaimNumber}</span>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function Loading() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading claim">
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-5 w-full" />
      ))}
    </div>
  );
}

/** Draws the payer status section of the claim's view (src/client/pages assembles it in). */
export type ClaimStatusSlot = (claim: { id: number; status: string }) => ReactNode;

/**
 * One claim as the payer will see it: header, coverage, diagnoses, lines, the scrubber's findings and the
 * history. Those who may change claims edit and scrub it here while it is Draft or Ready. Mounted while open.
 */
export function ClaimDetailDialog({
  claimId,
  accountNumber,
  canWrite,
  onClose,
  statusView,
}: {
  claimId: number;
  accountNumber: string;
  canWrite: boolean;
  onClose: () => void;
  /** The payer's claim status answers, drawn by the claim submission feature for those who send claims. */
  statusView?: ClaimStatusSlot;
}) {
  // Another claim of the visit (across the patient's policies) opens in this same view.
  const [shown, setShown] = useState({ id: claimId, accountNumber });
  const detail = useClaimDetail(shown.id);
  const [editing, setEditing] = useState(false);
  // A saved edit makes the claim Draft again: the last Scrub's verdict no longer speaks for it.
  const [saves, setSaves] = useState(0);
  const claim = detail.data;
  const changeable = canWrite && claim !== undefined && EDITABLE.includes(claim.status);
  const [writingOff, setWritingOff] = useState(false);
  const writable = canWrite && claim !== undefined && canWriteOff(claim.status);
  const [appealing, setAppealing] = useState(false);
  const appealable = canWrite && claim !== undefined && isAppealable(claim.status);
  const [correcting, setCorrecting] = useState(false);
  const correctable = canWrite && claim !== undefined && canCorrect(claim.status);
  const [voidingAtPayer, setVoidingAtPayer] = useState(false);
  const voidableAtPayer = canWrite && claim !== undefined && canVoidAtPayer(claim.status);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>Claim {claim?.accountNumber ?? shown.accountNumber}</DialogTitle>
          <DialogDescription>
            {claim
              ? `${claim.patient.name}, served ${formatDate(claim.serviceDate)}, billed ${formatDollars(claim.billedCents)} to ${claim.payer}; ${claim.status}.`
              : 'Header, coverage, diagnoses, service lines, scrub findings and history.'}
          </DialogDescription>
        </DialogHeader>
        {!claim ? (
          detail.isError ? (
            <div role="alert" className="grid justify-items-start gap-3">
              <p>The claim could not be loaded. {errorTextFor(detail.error)}</p>
              <Button variant="outline" onClick={() => void detail.refetch()} disabled={detail.isFetching}>
                Try again
              </Button>
            </div>
          ) : (
            <Loading />
          )
        ) : (
          <div className="grid gap-6">
            {(changeable || writable || appealable || correctable || voidableAtPayer) && (
              <div className="flex gap-2">
                {changeable && (
                  <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                    <Pencil className="size-4" aria-hidden="true" /> Edit
                  </Button>
                )}
                {correctable && (
                  <Button variant="outline" size="sm" onClick={() => setCorrecting(true)}>
                    <FilePen className="size-4" aria-hidden="true" /> Correct
                  </Button>
                )}
                {appealable && (
                  <Button variant="outline" size="sm" onClick={() => setAppealing(true)}>
                    <Gavel className="size-4" aria-hidden="true" /> Appeal
                  </Button>
                )}
                {writable && (
                  <Button variant="outline" size="sm" onClick={() => setWritingOff(true)}>
                    <CircleSlash className="size-4" aria-hidden="true" /> Write off
                  </Button>
                )}
                {voidableAtPayer && (
                  <Button variant="outline" size="sm" onClick={() => setVoidingAtPayer(true)}>
                    <Ban className="size-4" aria-hidden="true" /> Void at payer
                  </Button>
                )}
              </div>
            )}
            {voidingAtPayer && <VoidAtPayerDialog claim={claim} onClose={() => setVoidingAtPayer(false)} />}
            {writingOff && <WriteOffClaimDialog claim={claim} onClose={() => setWritingOff(false)} />}
            {correcting && <CorrectClaimDialog claim={claim} onClose={() => setCorrecting(false)} />}
            <AppealDialog
              claim={
                appealing
                  ? {
                      id: claim.id,
                      accountNumber: claim.accountNumber,
                      patient: claim.patient.name,
                      procedure: claim.lines.map((line) => line.procedureCode).join(', '),
                      serviceDate: claim.serviceDate,
                      billedCents: claim.billedCents,
                      payer: claim.payer,
                      status: claim.status,
                      reason: claim.reason,
                    }
                  : null
              }
              onClose={() => setAppealing(false)}
            />
            <RejectionNotice claim={claim} />
            <Header claim={claim} />
            <CoverageSection coverage={claim.coverage} />
            <PoliciesSection
              claim={claim}
              canWrite={canWrite}
              onOpen={(link) => {
                setEditing(false);
                setShown({ id: link.id, accountNumber: link.accountNumber });
              }}
            />
            <DiagnosesSection diagnoses={claim.diagnoses} />
            <LinesSection claim={claim} />
            <ScrubSection key={`${shown.id}-${saves}`} claim={claim} canScrub={changeable} />
            <SubmissionsSection submissions={claim.submissions} />
            {statusView?.({ id: claim.id, status: claim.status })}
            <Section id="claim-view-history" title="History">
              {claim.history.length === 0 ? (
                <p className="text-sm text-muted-foreground">No events recorded.</p>
              ) : (
                <ol className="grid gap-2" aria-label="Claim history">
                  {claim.history.map((event, i) => (
                    <HistoryItem key={`${event.at}-${i}`} event={event} />
                  ))}
                </ol>
              )}
            </Section>
          </div>
        )}
        {editing && claim && (
          <ClaimFormDialog claim={claim} onSaved={() => setSaves((n) => n + 1)} onClose={() => setEditing(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}
