import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { UserPlus } from 'lucide-react';
import { roleLabel } from '@/shared/access';
import { useSession } from '@/features/auth/ui/auth.api';
import { roleSchema } from '@/shared/api';
import { DataTable } from '@/client/components/data-table/DataTable';
import { Badge } from '@/client/components/ui/badge';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/client/components/ui/dialog';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { ASSIGNABLE_ROLES, type ManagedUser, type UserPatch } from '../users.schema';
import { CreateUserDialog } from './CreateUserDialog';
import { LinkPatientDialog } from './LinkPatientDialog';
import { useResetMfa, useUpdateUser, useUsers } from './users.api';

type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

function useApplyChange() {
  const update = useUpdateUser();
  const apply = (user: ManagedUser, patch: UserPatch, done: string) =>
    update.mutate(
      { id: user.id, patch },
      {
        onSuccess: () => toast({ title: 'User updated', description: `${user.name} ${done}.` }),
        onError: (error) =>
          toast({
            title: 'User not updated',
            description: errorDescription(error),
            variant: 'destructive',
          }),
      },
    );
  return { apply, pending: update.isPending };
}

function errorDescription(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.';
}

/**
 * Real user management for admins: list, create, change role, deactivate and reactivate, and clear a lost
 * authenticator so its owner enrols again.
 */
export function UsersTab() {
  const users = useUsers();
  const { apply, pending } = useApplyChange();
  const resetMfa = useResetMfa();
  // An admin's own authenticator is reset by another admin (the server refuses it: a stolen session alone
  // must not replace the second factor), so the button is not offered on their own row.
  const ownId = useSession().data?.user?.id;
  const [resettingMfa, setResettingMfa] = useState<ManagedUser | null>(null);
  const [creating, setCreating] = useState(false);
  const [deactivating, setDeactivating] = useState<ManagedUser | null>(null);
  const [linking, setLinking] = useState<ManagedUser | null>(null);
  const [changingRole, setChangingRole] = useState<{ user: ManagedUser; role: AssignableRole } | null>(null);
  // The server refuses to demote or deactivate the last active admin; the screen does not offer it either.
  const activeAdmins = (users.data?.items ?? []).filter((u) => u.role === 'admin' && u.status === 'Active').length;
  const isLastActiveAdmin = (user: ManagedUser) =>
    user.role === 'admin' && user.status === 'Active' && activeAdmins <= 1;

  const columns: ColumnDef<ManagedUser>[] = [
    { accessorKey: 'name', header: 'Name' },
    { accessorKey: 'email', header: 'Email' },
    {
      accessorKey: 'role',
      header: 'Role',
      cell: ({ row }) => {
        const user = row.original;
        if (user.role === 'patient') return <span className="capitalize">patient</span>;
        return (
          <Select
            value={user.role}
            disabled={pending || isLastActiveAdmin(user)}
            onValueChange={(value) => {
              const role = roleSchema.parse(value);
              if (role !== 'patient' && role !== user.role) setChangingRole({ user, role });
            }}
          >
            <SelectTrigger className="h-8 w-40 capitalize" aria-label={`Role of ${user.name}`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ASSIGNABLE_ROLES.map((role) => (
                <SelectItem key={role} value={role} className="capitalize">
                  {roleLabel(role)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        );
      },
    },
    {
      accessorKey: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <Badge variant={row.original.status === 'Active' ? 'default' : 'destructive'}>{row.original.status}</Badge>
      ),
    },
    {
      accessorKey: 'mfaEnrolled',
      header: 'Authenticator',
      cell: ({ row }) => (row.original.mfaEnrolled ? 'Set up' : 'Not set up'),
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      cell: ({ row }) => new Date(row.original.createdAt).toLocaleDateString('en-US'),
    },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) => {
        const user = row.original;
        const status =
          user.status === 'Active' ? (
            isLastActiveAdmin(user) ? null : (
              <Button size="sm" variant="outline" disabled={pending} onClick={() => setDeactivating(user)}>
                Deactivate<span className="sr-only"> {user.name}</span>
              </Button>
            )
          ) : (
            <Button
              size="sm"
              variant="outline"
              disabled={pending}
              onClick={() => apply(user, { active: true }, 'can sign in again')}
            >
              Reactivate<span className="sr-only"> {user.name}</span>
            </Button>
          );
        return (
          <div className="flex gap-2">
            {status}
            {user.mfaEnrolled && user.id !== ownId && (
              <Button size="sm" variant="outline" disabled={resetMfa.isPending} onClick={() => setResettingMfa(user)}>
                Reset MFA<span className="sr-only"> of {user.name}</span>
              </Button>
            )}
            {user.role === 'patient' && (
              <Button size="sm" variant="outline" onClick={() => setLinking(user)}>
                Link record<span className="sr-only"> of {user.name}</span>
              </Button>
            )}
          </div>
        );
      },
    },
  ];

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div>
          <CardTitle as="h2">Users</CardTitle>
          <CardDescription>
            A change of role or a deactivation signs the person out at once. The last active admin always stays.
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)}>
          <UserPlus aria-hidden="true" className="size-4" /> Add user
        </Button>
      </CardHeader>
      <CardContent>
        {users.isError ? (
          <p className="text-sm text-destructive">The users could not be loaded.</p>
        ) : (
          <DataTable
            label="Users"
            columns={columns}
            data={users.data?.items ?? []}
            getRowId={(u) => String(u.id)}
            loading={users.isLoading}
            search={{ placeholder: 'Name, email or role', label: 'Search users' }}
          />
        )}
      </CardContent>
      <CreateUserDialog open={creating} onClose={() => setCreating(false)} />
      <LinkPatientDialog user={linking} onClose={() => setLinking(null)} />
      <Dialog open={resettingMfa !== null} onOpenChange={(open) => !open && setResettingMfa(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Reset the authenticator of {resettingMfa?.name}?</DialogTitle>
            <DialogDescription>
              For a lost or replaced phone. {resettingMfa?.email} is signed out at once, their authenticator and
              recovery codes stop working, and they set up a new authenticator at their next sign-in. Confirm who is
              asking before you do this.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setResettingMfa(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                const user = resettingMfa;
                setResettingMfa(null);
                if (!user) return;
                resetMfa.mutate(user.id, {
                  onSuccess: () =>
                    toast({
                      title: 'User updated',
                      description: `${user.name} sets up a new authenticator at next sign-in.`,
                    }),
                  onError: (error) =>
                    toast({ title: 'User not updated', description: errorDescription(error), variant: 'destructive' }),
                });
              }}
            >
              Reset MFA
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={changingRole !== null} onOpenChange={(open) => !open && setChangingRole(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              Change the role of {changingRole?.user.name} to {changingRole ? roleLabel(changingRole.role) : ''}?
            </DialogTitle>
            <DialogDescription>
              {changingRole?.user.email} is signed out at once and, at the next sign-in, sees what the{' '}
              {changingRole ? roleLabel(changingRole.role) : ''} role may see instead of the{' '}
              {changingRole ? roleLabel(changingRole.user.role) : ''} role.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setChangingRole(null)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                if (changingRole) {
                  const { user, role } = changingRole;
                  apply(user, { role }, `is now ${roleLabel(role)}`);
                }
                setChangingRole(null);
              }}
            >
              Change role
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={deactivating !== null} onOpenChange={(open) => !open && setDeactivating(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Deactivate {deactivating?.name}?</DialogTitle>
            <DialogDescription>
              {deactivating?.email} is signed out at once and cannot sign in until reactivated.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setDeactivating(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                if (deactivating) apply(deactivating, { active: false }, 'has been deactivated');
                setDeactivating(null);
              }}
            >
              Deactivate
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
