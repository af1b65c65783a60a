import type { ColumnDef } from '@tanstack/react-table';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';

/** A record an admin maintains and may switch off without deleting it (a provider, a payer). */
interface ActiveRecord {
  name: string;
  active: boolean;
}

/** The Status column: Active, or Deactivated in red. */
export function activeStatusColumn<T extends ActiveRecord>(): ColumnDef<T> {
  return {
    id: 'status',
    accessorFn: (record) => (record.active ? 'Active' : 'Deactivated'),
    header: 'Status',
    cell: ({ row }) => (
      <Badge variant={row.original.active ? 'default' : 'destructive'}>
        {row.original.active ? 'Active' : 'Deactivated'}
      </Badge>
    ),
  };
}

/** Edit, and Deactivate (asked to confirm by the caller) or Reactivate, each naming its row to screen readers. */
export function activeRecordActionsColumn<T extends ActiveRecord>(actions: {
  onEdit: (record: T) => void;
  onDeactivate: (record: T) => void;
  onReactivate: (record: T) => void;
  busy: boolean;
}): ColumnDef<T> {
  return {
    id: 'actions',
    header: 'Actions',
    enableSorting: false,
    cell: ({ row }) => {
      const record = row.original;
      return (
        <div className="flex gap-2">
          <Button size="sm" variant="outline" onClick={() => actions.onEdit(record)}>
            Edit<span className="sr-only"> {record.name}</span>
          </Button>
          {record.active ? (
            <Button size="sm" variant="outline" disabled={actions.busy} onClick={() => actions.onDeactivate(record)}>
              Deactivate<span className="sr-only"> {record.name}</span>
            </Button>
          ) : (
            <Button size="sm" variant="outline" disabled={actions.busy} onClick={() => actions.onReactivate(record)}>
              Reactivate<span className="sr-only"> {record.name}</span>
            </Button>
          )}
        </div>
      );
    },
  };
}

/** 'Deactivate {name}?' with what that means, Cancel and Deactivate; closed while `record` is null. */
export function ConfirmDeactivateDialog<T extends ActiveRecord>({
  record,
  consequence,
  onCancel,
  onConfirm,
}: {
  record: T | null;
  consequence: string;
  onCancel: () => void;
  onConfirm: (record: T) => void;
}) {
  return (
    <Dialog open={record !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Deactivate {record?.name}?</DialogTitle>
          <DialogDescription>{consequence}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (record) onConfirm(record);
              onCancel();
            }}
          >
            Deactivate
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
