/**
 * The status badge mapping, shared by every screen that shows a status: Paid, Approved, Scheduled and
 * Completed are 'default'; Pending and Review 'secondary'; Denied and Cancelled 'destructive'. A Closed claim is
 * a paid claim with nothing left owed (docs/claims.md): it keeps Paid's badge. Any other status gets the neutral
 * outline.
 */
export type StatusVariant = 'default' | 'secondary' | 'destructive' | 'outline';

const VARIANTS: Record<string, StatusVariant> = {
  paid: 'default',
  closed: 'default',
  approved: 'default',
  scheduled: 'default',
  completed: 'default',
  confirmed: 'default',
  pending: 'secondary',
  review: 'secondary',
  denied: 'destructive',
  cancelled: 'destructive',
};

export function statusVariant(status: string): StatusVariant {
  return VARIANTS[status.toLowerCase()] ?? 'outline';
}
