import { useState, type ReactNode } from 'react';
import { FileText } from 'lucide-react';
import { formatDollars } from '@/shared/api';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card } from '@/client/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Skeleton } from '@/client/components/ui/skeleton';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import {
  WORK_CATEGORIES,
  WORK_CATEGORY_LABELS,
  WORK_RESOLUTIONS,
  WORK_OUTCOME_LABELS,
  WORK_SOURCE_LABELS,
  type WorkItem,
  type WorkResolution,
} from '../workqueue.schema';
import { can, type Role } from '@/shared/access';
import { AssignmentRules } from './AssignmentRules';
import { useAssignees, usePayerNames, useWorkItemAction, useWorkItemRefresh, useWorkQueue } from './workqueue.api';

/**
 * The claim's own view, opened over an item (the claims feature's, assembled by the client's route): given the
 * item's claim and what to do when it closes.
 */
export type ClaimViewSlot = (claim: { id: number; accountNumber: string }, onClose: () => void) => ReactNode;

const ALL = 'all';
const UNASSIGNED = 'none';

function priorityVariant(priority: WorkItem['priority']) {
  return priority === 'high'
    ? ('destructive' as const)
    : priority === 'normal'
      ? ('warning' as const)
      : ('info' as const);
}

function Filter({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} className="w-48" aria-label={label}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map(([v, text]) => (
            <SelectItem key={v} value={v}>
              {text}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function failure(err: unknown): string {
  if (err instanceof ApiError && err.fields[0]) return `${err.fields[0].field} ${err.fields[0].message}`;
  return 'Please try again.';
}

/**
 * One item: assign it, add a note, resolve it with an outcome, or open its claim to act on it there (appeal,
 * correct, write off), which may resolve the item: it is read again when the claim's view closes.
 */
function WorkItemDialog({
  item,
  claimView,
  onClose,
}: {
  item: WorkItem | null;
  claimView: ClaimViewSlot | undefined;
  onClose: () => void;
}) {
  const assignees = useAssignees();
  const action = useWorkItemAction();
  const refresh = useWorkItemRefresh();
  const [claimOpen, setClaimOpen] = useState(false);
  const [note, setNote] = useState('');
  const [outcome, setOutcome] = useState<WorkResolution | ''>('');
  const [resolution, setResolution] = useState('');
  const [shown, setShown] = useState<WorkItem | null>(null);
  const current = shown && item && shown.id === item.id ? shown : item;

  const run = async (act: Parameters<typeof action.mutateAsync>[0], done: string) => {
    try {
      const updated = await action.mutateAsync(act);
      setShown(updated);
      toast({ title: done });
      return updated;
    } catch (err) {
      toast({ title: 'Not saved', description: failure(err), variant: 'destructive' });
      return null;
    }
  };

  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) {
          setNote('');
          setOutcome('');
          setResolution('');
          setShown(null);
          setClaimOpen(false);
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-2xl">
        {current && (
          <>
            <DialogHeader>
              <DialogTitle>
                {current.accountNumber} · {WORK_SOURCE_LABELS[current.source]}
              </DialogTitle>
              <DialogDescription>{current.reason}</DialogDescription>
            </DialogHeader>
            {current.claimId !== null && claimView && (
              <div>
                <Button variant="outline" size="sm" onClick={() => setClaimOpen(true)}>
                  <FileText className="size-4" aria-hidden="true" /> Open claim
                </Button>
              </div>
            )}
            {claimOpen &&
              current.claimId !== null &&
              claimView?.({ id: current.claimId, accountNumber: current.accountNumber }, () => {
                setClaimOpen(false);
                void refresh.mutateAsync(current.id).then(setShown, (err: unknown) =>
                  toast({
                    title: 'The item could not be read again',
                    description: `It may have changed with its claim: close it and open it again. ${failure(err)}`,
                    variant: 'destructive',
                  }),
                );
              })}
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Patient</dt>
              <dd>{current.patientName || '—'}</dd>
              <dt className="text-muted-foreground">Payer</dt>
              <dd>{current.payer}</dd>
              <dt className="text-muted-foreground">Category</dt>
              <dd>{WORK_CATEGORY_LABELS[current.category]}</dd>
              <dt className="text-muted-foreground">At risk</dt>
              <dd>{formatDollars(current.dollarsAtRiskCents)}</dd>
              <dt className="text-muted-foreground">Due</dt>
              <dd>{current.dueOn}</dd>
            </dl>
            <div className="grid gap-1.5">
              <Label htmlFor="work-assignee">Assignee</Label>
              <Select
                value={current.assigneeId === null ? UNASSIGNED : String(current.assigneeId)}
                disabled={current.resolvedAt !== null || action.isPending}
                onValueChange={(value) =>
                  void run(
                    { kind: 'assign', id: current.id, assigneeId: value === UNASSIGNED ? null : Number(value) },
                    value === UNASSIGNED ? 'Item unassigned' : 'Item assigned',
                  )
                }
              >
                <SelectTrigger id="work-assignee" aria-label="Assignee">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={UNASSIGNED}>Unassigned</SelectItem>
                  {(assignees.data?.items ?? []).map((a) => (
                    <SelectItem key={a.id} value={String(a.id)}>
                      {a.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <section aria-label="Notes" className="grid gap-2">
              <h3 className="font-medium">Notes</h3>
              {current.notes.length === 0 ? (
                <p className="text-sm text-muted-foreground">No notes yet</p>
              ) : (
                <ul className="grid gap-1 text-sm">
                  {current.notes.map((n) => (
                    <li key={n.id}>
                      <span className="text-muted-foreground">
                        {n.author}, {n.at.slice(0, 10)}:
                      </span>{' '}
                      {n.body}
                    </li>
                  ))}
                </ul>
              )}
              <Label htmlFor="work-note">Add a note</Label>
              <textarea
                id="work-note"
                className="min-h-16 rounded-md border border-input bg-background p-2 text-sm"
                value={note}
                maxLength={2000}
                onChange={(e) => setNote(e.target.value)}
              />
              <div>
                <Button
                  variant="outline"
                  disabled={note.trim() === '' || action.isPending}
                  onClick={() =>
                    void run({ kind: 'note', id: current.id, body: note }, 'Note added').then((ok) => ok && setNote(''))
                  }
                >
                  Add note
                </Button>
              </div>
            </section>
            {current.resolvedAt === null ? (
              <section aria-label="Resolve" className="grid gap-2">
                <h3 className="font-medium">Resolve</h3>
                <Label htmlFor="work-outcome">Outcome</Label>
                <Select value={outcome} onValueChange={(v) => setOutcome(v as WorkResolution)}>
                  <SelectTrigger id="work-outcome" aria-label="Outcome">
                    <SelectValue placeholder="Choose an outcome" />
                  </SelectTrigger>
                  <SelectContent>
                    {WORK_RESOLUTIONS.map((o) => (
                      <SelectItem key={o} value={o}>
                        {WORK_OUTCOME_LABELS[o]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <Label htmlFor="work-resolution">
                  {outcome === 'written_off' ? 'Reason (required)' : 'Note (optional)'}
                </Label>
                <textarea
                  id="work-resolution"
                  className="min-h-16 rounded-md border border-input bg-background p-2 text-sm"
                  value={resolution}
                  maxLength={2000}
                  onChange={(e) => setResolution(e.target.value)}
                />
                <DialogFooter>
                  <Button
                    disabled={
                      outcome === '' || (outcome === 'written_off' && resolution.trim() === '') || action.isPending
                    }
                    onClick={() =>
                      outcome !== '' &&
                      void run(
                        { kind: 'resolve', id: current.id, resolution: { outcome, note: resolution } },
                        'Item resolved',
                      ).then((ok) => ok && onClose())
                    }
                  >
                    Resolve
                  </Button>
                </DialogFooter>
              </section>
            ) : (
              <p className="text-sm">
                Resolved {current.resolvedAt.slice(0, 10)}:{' '}
                {current.outcome ? WORK_OUTCOME_LABELS[current.outcome] : ''}
                {current.resolutionNote ? ` — ${current.resolutionNote}` : ''}
              </p>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Denials, exceptions and holds that need a person, soonest due or most dollars first. */
export default function WorkQueuePage({ role, claimView }: { role: Role; claimView?: ClaimViewSlot }) {
  const [category, setCategory] = useState(ALL);
  const [payer, setPayer] = useState(ALL);
  const [assignee, setAssignee] = useState(ALL);
  const [status, setStatus] = useState('open');
  const [sort, setSort] = useState('due');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [openItem, setOpenItem] = useState<WorkItem | null>(null);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setCursors([undefined]);
    };
  const queue = useWorkQueue({
    category: category === ALL ? undefined : category,
    payer: payer === ALL ? undefined : payer,
    assignee: assignee === ALL ? undefined : assignee,
    status,
    sort,
    limit: '50',
    cursor: cursors[cursors.length - 1],
  });
  const page = queue.data;
  const payers = usePayerNames();
  return (
    <section aria-busy={queue.isPending}>
      <PageHeader title="Work Queue" subtitle="Denials, remittance exceptions and claim holds that need a person" />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <Filter
          id="wq-category"
          label="Category"
          value={category}
          onChange={reset(setCategory)}
          options={[[ALL, 'All categories'], ...WORK_CATEGORIES.map((c) => [c, WORK_CATEGORY_LABELS[c]] as const)]}
        />
        <Filter
          id="wq-payer"
          label="Payer"
          value={payer}
          onChange={reset(setPayer)}
          options={[[ALL, 'All payers'], ...(payers.data ?? []).map((p) => [p.name, p.name] as const)]}
        />
        <Filter
          id="wq-assignee"
          label="Assignee"
          value={assignee}
          onChange={reset(setAssignee)}
          options={[
            [ALL, 'Anyone'],
            ['me', 'Me'],
            ['others', 'Others'],
            ['unassigned', 'Unassigned'],
          ]}
        />
        <Filter
          id="wq-status"
          label="Status"
          value={status}
          onChange={reset(setStatus)}
          options={[
            ['open', 'Open'],
            ['resolved', 'Resolved'],
          ]}
        />
        <Filter
          id="wq-sort"
          label="Sort by"
          value={sort}
          onChange={reset(setSort)}
          options={[
            ['due', 'Due date'],
            ['dollars', 'Dollars at risk'],
          ]}
        />
      </div>
      {queue.isError ? (
        <Card role="alert" className="p-6">
          <p className="mb-3">The work queue could not be loaded.</p>
          <Button variant="outline" onClick={() => void queue.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-sm" aria-label="Work items">
            <thead>
              <tr className="border-b border-border text-left">
                <th className="p-3 font-medium">Priority</th>
                <th className="p-3 font-medium">Due</th>
                <th className="p-3 font-medium">Account</th>
                <th className="p-3 font-medium">Patient</th>
                <th className="p-3 font-medium">Payer</th>
                <th className="p-3 font-medium">Category</th>
                <th className="p-3 font-medium">What happened</th>
                <th className="p-3 text-right font-medium">At risk</th>
                <th className="p-3 font-medium">Assignee</th>
              </tr>
            </thead>
            <tbody>
              {!page ? (
                <tr>
                  <td colSpan={9} className="p-3">
                    <Skeleton className="h-6 w-full" />
                  </td>
                </tr>
              ) : page.items.length === 0 ? (
                <tr>
                  <td colSpan={9} className="p-6 text-center text-muted-foreground">
                    {status === 'open' ? 'Nothing needs a person right now' : 'No resolved items match'}
                  </td>
                </tr>
              ) : (
                page.items.map((item) => (
                  <tr key={item.id} className="border-b border-border last:border-0">
                    <td className="p-3">
                      <Badge variant={priorityVariant(item.priority)}>{item.priority}</Badge>
                    </td>
                    <td className="p-3 whitespace-nowrap">{item.dueOn}</td>
                    <td className="p-3">
                      <Button variant="link" className="h-auto p-0" onClick={() => setOpenItem(item)}>
                        {item.accountNumber}
                      </Button>
                    </td>
                    <td className="p-3">{item.patientName || '—'}</td>
                    <td className="p-3">{item.payer}</td>
                    <td className="p-3">{WORK_CATEGORY_LABELS[item.category]}</td>
                    <td className="p-3">
                      <span className="font-medium">{WORK_SOURCE_LABELS[item.source]}</span>: {item.reason}
                    </td>
                    <td className="p-3 text-right tabular-nums">{formatDollars(item.dollarsAtRiskCents)}</td>
                    <td className="p-3">{item.assignee ?? 'Unassigned'}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </Card>
      )}
      <div className="mt-3 flex items-center gap-2">
        <Button variant="outline" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous
        </Button>
        <Button
          variant="outline"
          disabled={!page?.nextCursor}
          onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor ?? undefined])}
        >
          Next
        </Button>
        {typeof page?.total === 'number' && <span className="text-sm text-muted-foreground">{page.total} items</span>}
      </div>
      <WorkItemDialog item={openItem} claimView={claimView} onClose={() => setOpenItem(null)} />
      {can(role, 'workqueue:rules') && <AssignmentRules />}
    </section>
  );
}
