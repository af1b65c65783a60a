import { useState } from 'react';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { WORK_CATEGORIES, WORK_CATEGORY_LABELS, type WorkCategory } from '../workqueue.schema';
import { useAssignees, useAssignmentRules, usePayerNames, useRuleChange } from './workqueue.api';

const ANY = 'any';

/** The admin's auto-assignment rules: a new item goes to the rule of its payer and category, else payer, else category. */
export function AssignmentRules() {
  const rules = useAssignmentRules(true);
  const assignees = useAssignees();
  const payers = usePayerNames();
  const change = useRuleChange();
  const [payer, setPayer] = useState(ANY);
  const [category, setCategory] = useState(ANY);
  const [assignee, setAssignee] = useState('');

  const add = async () => {
    try {
      await change.mutateAsync({
        add: {
          payer: payer === ANY ? null : payer,
          category: category === ANY ? null : (category as WorkCategory),
          assigneeId: Number(assignee),
        },
      });
      toast({ title: 'Rule added', description: 'New items that match it are assigned by it.' });
    } catch (err) {
      toast({
        title: 'Rule not added',
        description: err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle as="h2">Assignment rules</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {(rules.data?.items ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No rules yet: new items stay unassigned</p>
        ) : (
          <ul className="grid gap-2 text-sm" aria-label="Assignment rules">
            {rules.data?.items.map((r) => (
              <li key={r.id} className="flex items-center gap-3">
                <span>
                  {r.payer ?? 'Any payer'} · {r.category ? WORK_CATEGORY_LABELS[r.category] : 'any category'} →{' '}
                  {r.assignee}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={change.isPending}
                  onClick={() => void change.mutateAsync({ remove: r.id }).catch(() => undefined)}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="rule-payer">Payer</Label>
            <Select value={payer} onValueChange={setPayer}>
              <SelectTrigger id="rule-payer" className="w-48" aria-label="Rule payer">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>Any payer</SelectItem>
                {(payers.data ?? []).map((p) => (
                  <SelectItem key={p.name} value={p.name}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="rule-category">Category</Label>
            <Select value={category} onValueChange={setCategory}>
              <SelectTrigger id="rule-category" className="w-48" aria-label="Rule category">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>Any category</SelectItem>
                {WORK_CATEGORIES.map((c) => (
                  <SelectItem key={c} value={c}>
                    {WORK_CATEGORY_LABELS[c]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="rule-assignee">Assign to</Label>
            <Select value={assignee} onValueChange={setAssignee}>
              <SelectTrigger id="rule-assignee" className="w-48" aria-label="Rule assignee">
                <SelectValue placeholder="Choose a person" />
              </SelectTrigger>
              <SelectContent>
                {(assignees.data?.items ?? []).map((a) => (
                  <SelectItem key={a.id} value={String(a.id)}>
                    {a.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button disabled={assignee === '' || change.isPending} onClick={() => void add()}>
            Add rule
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
