import { useEffect, useState, type FormEvent } from 'react';
import { Smartphone } from 'lucide-react';
import { ApiError } from '@/client/lib/api-client';
import { Button } from '@/client/components/ui/button';
import { CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { toast } from '@/client/components/ui/toast';
import type { EnrolmentConfirmResponse } from '../auth.schema';
import { useConfirmEnrolment, useStartEnrolment } from './auth.api';

/**
 * First sign-in without an authenticator: the QR code and the otpauth URI (shown this once), a code from
 * the app to confirm, then the recovery codes, shown once, before the session starts.
 */
export function EnrolmentStep({ challengeId, onBack }: { challengeId: string; onBack: () => void }) {
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const [code, setCode] = useState('');
  const [done, setDone] = useState<EnrolmentConfirmResponse | null>(null);
  const { mutate: startMutate } = start;

  useEffect(() => {
    startMutate(
      { challengeId },
      {
        onError: (error) =>
          toast({
            title: 'Set-up failed',
            description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please sign in again.',
            variant: 'destructive',
          }),
      },
    );
  }, [challengeId, startMutate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { challengeId, code },
      {
        onSuccess: setDone,
        onError: (error) => {
          toast({
            title: 'Invalid code',
            description: error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.',
            variant: 'destructive',
          });
          setCode('');
        },
      },
    );
  };

  if (done) {
    return (
      <>
        <CardHeader>
          <CardTitle>Recovery codes</CardTitle>
          <CardDescription>
            Keep these somewhere safe. Each works once instead of a code if you lose your phone. They are shown only
            now.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
            {done.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button className="w-full" onClick={() => confirm.finishSignIn(done)}>
            I have saved them — continue
          </Button>
        </CardContent>
      </>
    );
  }

  const setup = start.data;
  return (
    <>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Smartphone className="size-5" aria-hidden="true" /> Set up your authenticator app
        </CardTitle>
        <CardDescription>
          Scan the QR code with an authenticator app, then enter the 6-digit code it shows.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" onSubmit={submit}>
          {setup ? (
            <>
              <img
                className="mx-auto size-48"
                alt="QR code for your authenticator app"
                src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
              />
              <p className="text-sm text-muted-foreground">Or enter this key in the app by hand:</p>
              <p className="font-mono text-sm break-all" data-testid="totp-secret">
                {setup.secret}
              </p>
              <p className="font-mono text-xs break-all text-muted-foreground" data-testid="otpauth-uri">
                {setup.otpauthUri}
              </p>
            </>
          ) : (
            <p className="text-sm text-muted-foreground">Preparing…</p>
          )}
          <div className="space-y-2">
            <Label htmlFor="enrol-code">6-digit code</Label>
            <Input
              id="enrol-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            />
          </div>
          <div className="flex gap-2">
            <Button type="button" variant="outline" className="flex-1" onClick={onBack}>
              Back
            </Button>
            <Button type="submit" className="flex-1" disabled={!setup || confirm.isPending || code.length !== 6}>
              {confirm.isPending ? 'Verifying…' : 'Confirm'}
            </Button>
          </div>
        </form>
      </CardContent>
    </>
  );
}
