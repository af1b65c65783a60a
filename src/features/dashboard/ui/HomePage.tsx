import { CreditCard, UserPlus } from 'lucide-react';
import type { Role } from '@/shared/access';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { ComingSoon } from '@/client/components/layout/ComingSoon';
import { PageHeader } from '@/client/components/layout/PageHeader';

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
            <Button disabled aria-describedby="guest-coming-soon">
              Create Patient Account
            </Button>
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
            <Button disabled aria-describedby="guest-coming-soon">
              Pay Bill as Guest
            </Button>
          </CardContent>
        </Card>
      </div>
      <p id="guest-coming-soon" className="mt-4 text-sm text-muted-foreground">
        Self-registration and guest payment are coming soon.
      </p>
    </section>
  );
}

export default function HomePage({ role }: { role: Role }) {
  if (role === 'guest') return <GuestLanding />;
  return <ComingSoon title="Dashboard Overview" />;
}
