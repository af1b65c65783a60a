import { useState } from 'react';
import { Database, RotateCcw } from 'lucide-react';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { useGlobalReset, useSeedDemoData } from './compliance.api';

export const RESET_WARNING = 'WARNING: This will clear ALL data for this app. Proceed?';
export const SEED_WARNING =
  "This replaces every patient, appointment, claim, payment, authorization and encounter with the demo clinic's. Users, settings, providers, payers and the audit trail are kept. Proceed?";

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

export function SystemActions() {
  const seed = useSeedDemoData();
  const reset = useGlobalReset();
  const [confirming, setConfirming] = useState(false);
  const [confirmingSeed, setConfirmingSeed] = useState(false);

  const seedNow = () =>
    seed.mutate(undefined, {
      onSuccess: () => {
        setConfirmingSeed(false);
        toast({ title: 'Demo data successfully re-seeded' });
      },
      onError: (error) => {
        setConfirmingSeed(false);
        if (isForbidden(error)) {
          toast({ title: 'Unauthorized', description: 'Only Admin can seed data.', variant: 'destructive' });
        } else {
          toast({ title: 'Error', description: 'Failed to seed data', variant: 'destructive' });
        }
      },
    });

  const resetNow = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({
          title: 'System reset',
          description:
            'All clinic data has been cleared. Staff accounts, providers, payers and the audit trail were kept.',
        });
      },
      onError: (error) => {
        setConfirming(false);
        if (isForbidden(error)) {
          toast({ title: 'Unauthorized', description: 'Only Admin can reset the system.', variant: 'destructive' });
        } else {
          toast({ title: 'Error', description: 'Failed to reset the system', variant: 'destructive' });
        }
      },
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">System</CardTitle>
        <CardDescription>
          Re-seed the demo clinic, or clear all clinic data. The audit trail and the compliance programme are kept.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setConfirmingSeed(true)} disabled={seed.isPending}>
          <Database aria-hidden className="mr-2 size-4" />
          {seed.isPending ? 'Seeding…' : 'Seed demo data'}
        </Button>
        <Dialog open={confirmingSeed} onOpenChange={(open) => !seed.isPending && setConfirmingSeed(open)}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Seed demo data</DialogTitle>
              <DialogDescription>{SEED_WARNING}</DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button variant="destructive" onClick={seedNow} disabled={seed.isPending}>
                {seed.isPending ? 'Seeding…' : 'Replace all clinic data'}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
        <Button variant="destructive" onClick={() => setConfirming(true)} disabled={reset.isPending}>
          <RotateCcw aria-hidden className="mr-2 size-4" />
          Global reset
        </Button>
        <Dialog open={confirming} onOpenChange={(open) => !reset.isPending && setConfirming(open)}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Global reset</DialogTitle>
              <DialogDescription>{RESET_WARNING}</DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button variant="destructive" onClick={resetNow} disabled={reset.isPending}>
                {reset.isPending ? 'Resetting…' : 'Proceed'}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
