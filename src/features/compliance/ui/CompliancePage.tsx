import type { ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { Check, Minus } from 'lucide-react';
import { can, roleLabel, type Role } from '@/shared/access';
import { DataTable } from '@/client/components/data-table/DataTable';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { Badge } from '@/client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Skeleton } from '@/client/components/ui/skeleton';
import type { ComplianceOverview, HipaaItem, WcagCheck } from '../compliance.schema';
import { ComplianceGaps } from './ComplianceGaps';
import { SecurityCheckRunner } from './SecurityCheckRunner';
import { SystemActions } from './SystemActions';
import { TestRunners } from './TestRunners';
import { useComplianceOverview, useHipaaItems, useWcagChecks } from './compliance.api';

const STATUS_BADGE = {
  Compliant: 'default',
  Pass: 'default',
  Partial: 'secondary',
  'Not compliant': 'destructive',
  Fail: 'destructive',
} as const;

function StatusBadge({ status }: { status: keyof typeof STATUS_BADGE }) {
  return <Badge variant={STATUS_BADGE[status]}>{status}</Badge>;
}

function StatCard({ title, value, children }: { title: string; value: string | undefined; children?: ReactNode }) {
  return (
    <Card className="h-full">
      <CardHeader className="pb-2">
        <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {value === undefined ? (
          <div aria-busy="true" aria-label={`Loading ${title}`} className="space-y-2">
            <Skeleton className="h-8 w-24" />
            <Skeleton className="h-4 w-full" />
          </div>
        ) : (
          <>
            <p className="text-3xl font-bold">{value}</p>
            <div className="mt-2 text-sm text-muted-foreground">{children}</div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function OverviewCards({ overview }: { overview: ComplianceOverview | undefined }) {
  const rbac = overview?.rbac;
  const mfa = overview?.mfa;
  const required = mfa?.roles.filter((r) => r.required) ?? [];
  return (
    <ul className="mb-6 grid gap-4 md:grid-cols-3" aria-label="Security overview">
      <li>
        <StatCard title="RBAC coverage" value={rbac && `${Math.round(rbac.percent)}%`}>
          {rbac && (
            <>
              <p>
                {rbac.protectedRoutes} of {rbac.apiRoutes} API routes need a session and a permission; the policy
                decides each for all 6 roles (protected routes × 6 ÷ routes × 6).
              </p>
              <p>
                Screens × roles: {rbac.screenCells.allowed} allowed and {rbac.screenCells.denied} denied of{' '}
                {rbac.screenCells.total} cells.
              </p>
              <p>Open without a session: {rbac.publicRoutes.join(', ') || 'none'}.</p>
            </>
          )}
        </StatCard>
      </li>
      <li>
        <StatCard title="MFA status" value={mfa && `${required.length} of ${mfa.roles.length} roles`}>
          {mfa && (
            <>
              <p>MFA required; second factor: {mfa.secondFactor}.</p>
              <ul aria-label="MFA by role">
                {mfa.roles.map((r) => (
                  <li key={r.role}>
                    <span className="capitalize">{roleLabel(r.role)}</span>: {r.required ? 'required' : 'not required'},{' '}
                    {r.activeAccounts} active account{r.activeAccounts === 1 ? '' : 's'}
                    {r.required && r.enrolledAccounts < r.activeAccounts
                      ? ` (${r.activeAccounts - r.enrolledAccounts} not enrolled)`
                      : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
        </StatCard>
      </li>
      <li>
        <StatCard title="Audit events" value={overview?.audit.events.toLocaleString('en-US')}>
          <p>Entries in the append-only, hash-chained audit log.</p>
        </StatCard>
      </li>
    </ul>
  );
}

type MatrixRow = ComplianceOverview['matrix']['roles'][number];

function matrixColumns(screens: ComplianceOverview['matrix']['screens']): ColumnDef<MatrixRow>[] {
  return [
    {
      id: 'role',
      header: 'Role',
      accessorFn: (r) => roleLabel(r.role),
      cell: ({ row }) => <span className="font-medium capitalize">{roleLabel(row.original.role)}</span>,
    },
    ...screens.map((screen): ColumnDef<MatrixRow> => ({
      id: screen.path,
      header: screen.label,
      enableSorting: false,
      meta: { align: 'center' },
      cell: ({ row }) =>
        row.original.screens.includes(screen.path) ? (
          <>
            <Check aria-hidden className="mx-auto size-4" />
            <span className="sr-only">Allowed</span>
          </>
        ) : (
          <>
            <Minus aria-hidden className="mx-auto size-4 text-muted-foreground" />
            <span className="sr-only">Not allowed</span>
          </>
        ),
    })),
    {
      id: 'permissions',
      header: 'API permissions',
      enableSorting: false,
      meta: { className: 'whitespace-normal min-w-[28rem]' },
      cell: ({ row }) => <span className="font-mono text-xs">{row.original.permissions.join(', ')}</span>,
    },
  ];
}

const HIPAA_COLUMNS: ColumnDef<HipaaItem>[] = [
  { accessorKey: 'reference', header: 'Standard', meta: { className: 'whitespace-nowrap' } },
  { accessorKey: 'safeguard', header: 'Safeguard' },
  { accessorKey: 'requirement', header: 'Requirement', meta: { className: 'whitespace-normal' } },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { accessorKey: 'evidence', header: 'Evidence', meta: { className: 'whitespace-normal min-w-64' } },
];

const WCAG_COLUMNS: ColumnDef<WcagCheck>[] = [
  { accessorKey: 'criterion', header: 'Criterion' },
  { accessorKey: 'title', header: 'Title' },
  { accessorKey: 'level', header: 'Level' },
  { accessorKey: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { accessorKey: 'note', header: 'Note', meta: { className: 'whitespace-normal min-w-64' } },
];

function TableCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export default function CompliancePage({ role }: { role: Role }) {
  const overview = useComplianceOverview();
  const hipaa = useHipaaItems();
  const wcag = useWcagChecks();
  const isAdmin = can(role, 'system:admin');

  return (
    <section className="space-y-6">
      <PageHeader title="Security and Compliance" subtitle="RBAC, MFA, audit, HIPAA and WCAG status of this system" />
      {overview.isError && <p role="alert">The security overview could not be loaded.</p>}
      <OverviewCards overview={overview.data} />

      <TableCard
        title="Permission matrix"
        description="Generated from the access policy: the screens each role may open and the API permissions behind them."
      >
        <DataTable
          label="Permission matrix"
          columns={matrixColumns(overview.data?.matrix.screens ?? [])}
          data={overview.data?.matrix.roles ?? []}
          getRowId={(r) => r.role}
          loading={overview.isLoading}
          emptyMessage={overview.isLoading ? 'Loading…' : 'No roles'}
        />
      </TableCard>

      <TableCard title="HIPAA mock audit" description="HIPAA Security Rule standards (45 CFR 164.308–164.312).">
        <DataTable
          label="HIPAA mock audit"
          columns={HIPAA_COLUMNS}
          data={hipaa.data ?? []}
          getRowId={(i) => String(i.id)}
          loading={hipaa.isLoading}
          search={{ placeholder: 'Search standards', label: 'Search the HIPAA mock audit' }}
          emptyMessage={hipaa.isError ? 'The mock audit could not be loaded' : 'No audit items recorded'}
        />
      </TableCard>

      <TableCard
        title="WCAG checklist"
        description="WCAG 2.1 level A and AA criteria checked on this product's screens."
      >
        <DataTable
          label="WCAG checklist"
          columns={WCAG_COLUMNS}
          data={wcag.data ?? []}
          getRowId={(c) => String(c.id)}
          loading={wcag.isLoading}
          emptyMessage={wcag.isError ? 'The checklist could not be loaded' : 'No criteria recorded'}
        />
      </TableCard>

      {isAdmin && (
        <>
          <SecurityCheckRunner />
          <TestRunners />
          <ComplianceGaps />
          <SystemActions />
        </>
      )}
    </section>
  );
}
