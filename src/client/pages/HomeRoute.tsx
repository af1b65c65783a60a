import { CreditCard, UserPlus } from 'lucide-react';
import type { Role } from '@/shared/access';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { PageHeader } from '@/client/components/layout/PageHeader';
import { RegisterDialog } from '@/features/auth/ui/RegisterDialog';
import { GuestPayDialog } from '@/features/billing/ui/GuestPayDialog';
import { DashboardOverview } from '@/features/dashboard/ui/DashboardOverview';

/**
 * '/home' is the guest's landing page or the staff dashboard. The guest landing assembles two
 * features' actions (registration from auth, guest payment from billing), so it lives in the client shell.
 */

/** The guest's landing page. It calls no dashboard endpoint. */
function GuestLanding() {
  return (
    <section>
      <PageHeader title="Welcome" subtitle="Guest Portal" />
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <UserPlus className="size-5" aria-hidden="true" /> Create Account
            </CardTitle>
            <CardDescription>Register as a patient to see your visits and bills.</CardDescription>
          </CardHeader>
          <CardContent>
            <RegisterDialog />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="size-5" aria-hidden="true" /> Pay as Guest
            </CardTitle>
            <CardDescription>Pay a statement with its account number and your date of birth.</CardDescription>
          </CardHeader>
          <CardContent>
            <GuestPayDialog />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

export default function HomeRoute({ role }: { role: Role }) {
  if (role === 'guest') return <GuestLanding />;
  return <DashboardOverview />;
}
