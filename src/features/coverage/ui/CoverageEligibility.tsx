import { ShieldCheck } from 'lucide-react';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { errorTextFor } from '@/client/lib/error-text';
import { formatDollars } from '@/shared/api';
import { formatDate } from '@/shared/dates';
import { dayInZone, timeInZone } from '@/shared/practice-zone';
import { formatTime12 } from '@/shared/dates';
import {
  eligibilityStatusLabel,
  rejectionText,
  type EligibilityAccumulator,
  type EligibilityCheck,
  type EligibilityStatus,
  type EligibilitySummary,
} from '../coverage.eligibility.schema';
import { useCheckEligibility } from './coverage.api';

const VARIANT: Record<EligibilityStatus, 'info' | 'destructive' | 'secondary' | 'warning'> = {
  Active: 'info',
  Inactive: 'destructive',
  Rejected: 'warning',
  Awaiting: 'secondary',
};

function when(iso: string): string {
  const at = new Date(iso);
  return `${formatDate(dayInZone(at))} at ${formatTime12(timeInZone(at))}`;
}

/** In-network first (what the front desk quotes), then whatever the payer gave. */
function preferred<T extends { network: string; coverageLevel: string | null }>(items: readonly T[]): T | undefined {
  return (
    items.find((i) => i.network === 'in' && i.coverageLevel !== 'FAM') ??
    items.find((i) => i.network === 'in') ??
    items.find((i) => i.network !== 'out') ??
    items[0]
  );
}

const NETWORK_WORDS: Record<string, string> = { in: 'in network', out: 'out of network', both: 'any network' };
const networkWords = (network: string) => (NETWORK_WORDS[network] ? ` ${NETWORK_WORDS[network]}` : '');

function remaining(a: EligibilityAccumulator | undefined): string | null {
  if (!a) return null;
  if (a.remainingCents !== null && a.totalCents !== null) {
    return `${formatDollars(a.remainingCents)} left of ${formatDollars(a.totalCents)}${networkWords(a.network)}`;
  }
  if (a.remainingCents !== null) return `${formatDollars(a.remainingCents)} left${networkWords(a.network)}`;
  return a.totalCents === null ? null : `${formatDollars(a.totalCents)}${networkWords(a.network)}`;
}

function benefits(summary: EligibilitySummary): [string, string][] {
  const rows: [string, string | null][] = [];
  rows.push(['Plan', summary.planName]);
  const copay = preferred(summary.copays);
  rows.push(['Copay', copay ? `${formatDollars(copay.amountCents)}${networkWords(copay.network)}` : null]);
  const coinsurance = preferred(summary.coinsurance);
  rows.push([
    'Coinsurance',
    coinsurance ? `${Math.round(coinsurance.percent * 100)}%${networkWords(coinsurance.network)}` : null,
  ]);
  rows.push(['Deductible', remaining(preferred(summary.deductibles.filter((d) => !d.lifetime)))]);
  rows.push(['Out of pocket', remaining(preferred(summary.outOfPocket.filter((d) => !d.lifetime)))]);
  return rows.filter((r): r is [string, string] => r[1] !== null);
}

/**
 * A policy's latest eligibility check on the patient's insurance list: what the payer answered and when, the
 * benefits the front desk quotes, and the button that asks again.
 */
export function CoverageEligibility({
  patientId,
  coverageId,
  title,
  check,
  canCheck,
}: {
  patientId: number;
  coverageId: number;
  /** The policy as the button names it ("Aetna (Primary)"). */
  title: string;
  check: EligibilityCheck | null;
  canCheck: boolean;
}) {
  const ask = useCheckEligibility(patientId);
  const status = check?.status ?? null;
  let line: string;
  if (!check) line = 'Never checked with the payer';
  else if (check.status === 'Awaiting') line = `Asked ${when(check.requestedAt)} for ${formatDate(check.serviceDate)}`;
  else line = `Checked ${when(check.answeredAt ?? check.requestedAt)} for ${formatDate(check.serviceDate)}`;
  const rejection = check?.status === 'Rejected' ? rejectionText(check.summary) : null;

  return (
    <div className="mt-3 rounded-md bg-muted/40 p-2" aria-label={`Eligibility of ${title}`} role="group">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-muted-foreground">Eligibility</span>
          <Badge variant={status ? VARIANT[status] : 'outline'}>{eligibilityStatusLabel(status)}</Badge>
          <span className="text-xs text-muted-foreground">{line}</span>
        </p>
        {canCheck && (
          <Button
            size="sm"
            variant="outline"
            aria-label={`Check eligibility of ${title}`}
            disabled={ask.isPending}
            onClick={() => ask.mutate({ coverageId, body: {} })}
          >
            <ShieldCheck aria-hidden="true" className="size-4" />
            {ask.isPending ? 'Asking…' : 'Check eligibility'}
          </Button>
        )}
      </div>
      {rejection && <p className="mt-1 text-destructive">Rejected: {rejection}</p>}
      {check?.status === 'Inactive' && (
        <p className="mt-1 text-destructive">
          The payer says the policy is not active
          {check.summary?.coverageEnd ? ` (ended ${formatDate(check.summary.coverageEnd)})` : ''}.
        </p>
      )}
      {check?.status === 'Active' && check.summary && (
        <dl className="mt-2 space-y-1">
          {benefits(check.summary).map(([term, value]) => (
            <div key={term} className="grid grid-cols-[7rem_1fr] gap-2">
              <dt className="text-muted-foreground">{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {check?.summary && check.summary.messages.length > 0 && (
        <ul className="mt-2 space-y-0.5 text-xs text-muted-foreground" aria-label="The payer's messages">
          {check.summary.messages.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      )}
      {ask.isError && (
        <p role="alert" className="mt-1 text-destructive">
          Could not ask the payer: {errorTextFor(ask.error)}
        </p>
      )}
    </div>
  );
}
