import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { countOf } from '@/shared/plural';
import { HeartPulse, KeyRound, ShieldCheck } from 'lucide-react';
import { roleLabel } from '@/shared/access';
import { ApiError } from '@/client/lib/api-client';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { toast } from '@/client/components/ui/toast';
import { DEMO_ACCOUNTS } from '../auth.demo-accounts';
import type { LoginResponse } from '../auth.schema';
import { takeEmailForSignIn, useLogin, useVerifyCode } from './auth.api';

function showSignInError(error: unknown, step: 'credentials' | 'code') {
  if (!(error instanceof ApiError)) {
    toast({ title: 'Error', description: 'Failed to authenticate', variant: 'destructive' });
    return;
  }
  const description = error.serverMessage ?? error.message;
  switch (error.code) {
    case 'ACCOUNT_LOCKED':
      toast({ title: 'Account locked', description, variant: 'destructive' });
      return;
    case 'INVALID_CREDENTIALS':
      toast({
        title: 'Invalid credentials',
        description: 'Please check your email and password.',
        variant: 'destructive',
      });
      return;
    case 'INVALID_CODE':
      toast({ title: 'Invalid code', description, variant: 'destructive' });
      return;
    case 'CHALLENGE_EXPIRED':
      toast({ title: 'Sign-in expired', description, variant: 'destructive' });
      return;
    default:
      toast({
        title: 'Error',
        description: step === 'credentials' && error.status >= 500 ? 'Failed to authenticate' : description,
        variant: 'destructive',
      });
  }
}

// Only an account's first sign-in outside demo mode enrols an authenticator: kept out of the first download.
const EnrolmentStep = lazy(() => import('./EnrolmentStep').then((m) => ({ default: m.EnrolmentStep })));

interface SignInPageProps {
  /** Said above the form, e.g. why signing in is asked for again. */
  notice?: ReactNode;
  /** Filled into Email, e.g. the account whose session expired. */
  initialEmail?: string;
}

export function SignInPage({ notice, initialEmail }: SignInPageProps = {}) {
  // After self-registration the new account's email is filled in.
  const [email, setEmail] = useState(() => initialEmail ?? takeEmailForSignIn());
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // A lost phone: one of the recovery codes given at enrolment stands in for the authenticator's code.
  const [usingRecoveryCode, setUsingRecoveryCode] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [challenge, setChallenge] = useState<LoginResponse | null>(null);
  // While the account is locked after wrong codes: the seconds left, counted down here; Verify waits for 0.
  const [lockedSeconds, setLockedSeconds] = useState(0);
  useEffect(() => {
    if (lockedSeconds <= 0) return;
    const tick = setTimeout(() => setLockedSeconds((s) => s - 1), 1000);
    return () => clearTimeout(tick);
  }, [lockedSeconds]);
  const login = useLogin();
  const verify = useVerifyCode();

  const submitCredentials = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email, password },
      { onSuccess: (result) => setChallenge(result), onError: (error) => showSignInError(error, 'credentials') },
    );
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!challenge) return;
    verify.mutate(
      usingRecoveryCode
        ? { challengeId: challenge.challengeId, recoveryCode: recoveryCode.trim() }
        : { challengeId: challenge.challengeId, code },
      {
        onError: (error) => {
          showSignInError(error, 'code');
          if (error instanceof ApiError && error.code === 'CHALLENGE_EXPIRED') back();
          if (error instanceof ApiError && error.code === 'ACCOUNT_LOCKED')
            setLockedSeconds(error.retryAfterSeconds ?? 60);
          setCode('');
          setRecoveryCode('');
        },
      },
    );
  };

  // Back returns to the credentials step and clears the code and the pending sign-in.
  const back = () => {
    setChallenge(null);
    setCode('');
    setRecoveryCode('');
    setUsingRecoveryCode(false);
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted p-4">
      <div className="w-full max-w-md space-y-6">
        <div className="text-center">
          <HeartPulse className="mx-auto size-10 text-primary" aria-hidden="true" />
          <h1 className="mt-2 text-2xl font-bold">Healthcare RCM</h1>
          <p className="text-muted-foreground">Next-Generation Healthcare Coordination</p>
        </div>
        {notice}
        <Card>
          {challenge === null ? (
            <>
              <CardHeader>
                <CardTitle>Sign in</CardTitle>
                <CardDescription>Enter your email and password.</CardDescription>
              </CardHeader>
              <CardContent>
                <form className="space-y-4" onSubmit={submitCredentials}>
                  <div className="space-y-2">
                    <Label htmlFor="email">Email</Label>
                    <Input
                      id="email"
                      type="email"
                      autoComplete="username"
                      required
                      value={email}
                      onChange={(e) => setEmail(e.target.value)}
                    />
                  </div>
                  <div className="space-y-2">
                    <Label htmlFor="password">Password</Label>
                    <Input
                      id="password"
                      type="password"
                      autoComplete="current-password"
                      required
                      value={password}
                      onChange={(e) => setPassword(e.target.value)}
                    />
                  </div>
                  <Button type="submit" className="w-full" disabled={login.isPending}>
                    {login.isPending ? 'Checking…' : 'Continue'}
                  </Button>
                </form>
                <section aria-labelledby="demo-accounts" className="mt-6 rounded-md border p-3 text-sm">
                  <h2 id="demo-accounts" className="flex items-center gap-2 font-medium">
                    <KeyRound className="size-4" aria-hidden="true" /> Demo accounts
                  </h2>
                  <p className="mt-1 text-muted-foreground">The password is the role name in lowercase.</p>
                  <ul className="mt-2 space-y-1">
                    {DEMO_ACCOUNTS.map((account) => (
                      <li key={account.role}>
                        <button
                          type="button"
                          className="flex w-full justify-between gap-2 rounded px-2 py-1 text-left hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                          onClick={() => {
                            setEmail(account.email);
                            setPassword(account.password);
                          }}
                          aria-label={`Use the ${roleLabel(account.role)} demo account, ${account.email}`}
                        >
                          <span className="capitalize">{roleLabel(account.role)}</span>
                          <span className="font-mono text-muted-foreground">{account.email}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </section>
              </CardContent>
            </>
          ) : challenge.enrolmentRequired ? (
            <Suspense fallback={<CardContent className="p-6 text-sm text-muted-foreground">Loading…</CardContent>}>
              <EnrolmentStep challengeId={challenge.challengeId} onBack={back} />
            </Suspense>
          ) : (
            <>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <ShieldCheck className="size-5" aria-hidden="true" /> Verification code
                </CardTitle>
                <CardDescription>Enter the 6-digit code to finish signing in.</CardDescription>
              </CardHeader>
              <CardContent>
                <form className="space-y-4" onSubmit={submitCode}>
                  {challenge.demoCode ? (
                    <p className="rounded-md bg-muted p-3 text-sm" data-testid="demo-code">
                      Demo code:{' '}
                      <span className="font-mono text-lg font-semibold tracking-widest">{challenge.demoCode}</span>
                    </p>
                  ) : usingRecoveryCode ? (
                    <p className="text-sm text-muted-foreground">
                      Enter one of the recovery codes you saved when you set up your authenticator. Each works once.
                    </p>
                  ) : (
                    <p className="text-sm text-muted-foreground">Open your authenticator app for the current code.</p>
                  )}
                  {usingRecoveryCode ? (
                    <div className="space-y-2">
                      <Label htmlFor="recovery-code">Recovery code</Label>
                      <Input
                        id="recovery-code"
                        autoComplete="off"
                        autoCapitalize="characters"
                        spellCheck={false}
                        required
                        autoFocus
                        placeholder="ABCD-EFGH-JKMN"
                        maxLength={22}
                        value={recoveryCode}
                        onChange={(e) => setRecoveryCode(e.target.value)}
                      />
                    </div>
                  ) : (
                    <div className="space-y-2">
                      <Label htmlFor="mfa-code">6-digit code</Label>
                      <Input
                        id="mfa-code"
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        pattern="[0-9]{6}"
                        maxLength={6}
                        required
                        autoFocus
                        value={code}
                        onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                      />
                    </div>
                  )}
                  {lockedSeconds > 0 && (
                    <p role="status" className="text-sm font-medium text-destructive" data-testid="lock-countdown">
                      Too many wrong codes. Try again in {countOf(lockedSeconds, 'second')}.
                    </p>
                  )}
                  <div className="flex gap-2">
                    <Button type="button" variant="outline" className="flex-1" onClick={back}>
                      Back
                    </Button>
                    <Button
                      type="submit"
                      className="flex-1"
                      disabled={
                        lockedSeconds > 0 ||
                        verify.isPending ||
                        (usingRecoveryCode ? recoveryCode.trim().length < 12 : code.length !== 6)
                      }
                    >
                      {verify.isPending ? 'Verifying…' : 'Verify'}
                    </Button>
                  </div>
                  {!challenge.demoCode && (
                    <Button
                      type="button"
                      variant="link"
                      className="w-full"
                      onClick={() => {
                        setUsingRecoveryCode(!usingRecoveryCode);
                        setCode('');
                        setRecoveryCode('');
                      }}
                    >
                      {usingRecoveryCode
                        ? 'Use the code from my authenticator app'
                        : 'Lost your phone? Use a recovery code'}
                    </Button>
                  )}
                </form>
              </CardContent>
            </>
          )}
        </Card>
      </div>
    </main>
  );
}
