import { useState } from 'react';
import { Button } from '@/client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/client/components/ui/card';
import { FormField } from '@/client/components/ui/form-field';
import { Input } from '@/client/components/ui/input';
import { Label } from '@/client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/client/components/ui/select';
import { Switch } from '@/client/components/ui/switch';
import { toast } from '@/client/components/ui/toast';
import { ApiError } from '@/client/lib/api-client';
import { momentText } from '@/client/lib/moment-text';
import { mailboxSettingsInputSchema, type MailboxAuthMethod, type MailboxSettings } from '../clearinghouse.schema';
import { MailboxLog } from './MailboxLog';
import { useMailboxSettings, useRunMailbox, useSaveMailbox, useTestMailbox } from './clearinghouse.api';

type Field =
  | 'host'
  | 'port'
  | 'username'
  | 'secret'
  | 'hostKeySha256'
  | 'outboundDir'
  | 'inboundDir'
  | 'pollMinutes'
  | 'eveningTime'
  | 'maxFailures';
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: readonly string[] = [
  'host',
  'port',
  'username',
  'secret',
  'hostKeySha256',
  'outboundDir',
  'inboundDir',
  'pollMinutes',
  'eveningTime',
  'maxFailures',
];

function collect(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const found: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (FIELDS.includes(field) && !found[field as Field]) found[field as Field] = issue.message;
  }
  return found;
}

function failure(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.';
}

const textareaClass =
  'flex min-h-28 w-full rounded-md border border-border bg-background px-3 py-2 font-mono text-xs placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive';

/** The form: the settings as saved, the secret always empty (it is never sent back). */
function MailboxForm({ saved }: { saved: MailboxSettings }) {
  const save = useSaveMailbox();
  const test = useTestMailbox();
  const run = useRunMailbox();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [host, setHost] = useState(saved.host);
  const [port, setPort] = useState(String(saved.port));
  const [username, setUsername] = useState(saved.username);
  const [auth, setAuth] = useState<MailboxAuthMethod>(saved.auth);
  const [secret, setSecret] = useState('');
  const [hostKeySha256, setHostKey] = useState(saved.hostKeySha256);
  const [outboundDir, setOutboundDir] = useState(saved.outboundDir);
  const [inboundDir, setInboundDir] = useState(saved.inboundDir);
  const [pollMinutes, setPollMinutes] = useState(String(saved.pollMinutes));
  const [eveningTime, setEveningTime] = useState(saved.eveningTime);
  const [maxFailures, setMaxFailures] = useState(String(saved.maxFailures));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const busy = save.isPending || test.isPending || run.isPending;

  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const submit = () => {
    const checked = mailboxSettingsInputSchema.safeParse({
      enabled,
      host,
      port: number(port),
      username,
      auth,
      secret,
      hostKeySha256,
      outboundDir,
      inboundDir,
      pollMinutes: number(pollMinutes),
      eveningTime,
      maxFailures: number(maxFailures),
    });
    if (!checked.success) return setErrors(collect(checked.error.issues));
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (result) => {
        setSecret('');
        toast({
          title: 'Mailbox settings saved',
          description: result.enabled ? 'The mailbox sends and fetches on its schedule.' : 'The mailbox is off.',
        });
      },
      onError: (error) => {
        const found = collect((error instanceof ApiError ? error.fields : []).map((f) => ({ ...f, path: [f.field] })));
        setErrors(found);
        if (Object.keys(found).length === 0) {
          toast({ title: 'Mailbox settings not saved', description: failure(error), variant: 'destructive' });
        }
      },
    });
  };

  const secretLabel = auth === 'key' ? 'Private key' : 'Password';
  const secretHint = saved.hasSecret
    ? `A ${auth === 'key' ? 'key' : 'password'} is stored (encrypted). Leave empty to keep it.`
    : auth === 'key'
      ? 'Paste the private key (PEM or OpenSSH format). It is stored encrypted and never shown again.'
      : 'Stored encrypted and never shown again.';

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="flex items-center gap-3">
        <Switch id="mailbox-enabled" checked={enabled} onCheckedChange={setEnabled} />
        <Label htmlFor="mailbox-enabled">Send and fetch on a schedule</Label>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <FormField id="mailbox-host" label="Host" error={errors.host}>
          {(control) => (
            <Input {...control} autoComplete="off" value={host} onChange={(e) => setHost(e.target.value)} />
          )}
        </FormField>
        <FormField id="mailbox-port" label="Port" error={errors.port}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              max={65535}
              value={port}
              onChange={(e) => setPort(e.target.value)}
            />
          )}
        </FormField>
        <FormField id="mailbox-username" label="User name" error={errors.username}>
          {(control) => (
            <Input {...control} autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
          )}
        </FormField>
      </div>
      <FormField id="mailbox-auth" label="Sign in with">
        {(control) => (
          <Select value={auth} onValueChange={(value) => setAuth(value as MailboxAuthMethod)}>
            <SelectTrigger {...control} className="md:w-64">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="password">Password</SelectItem>
              <SelectItem value="key">Private key</SelectItem>
            </SelectContent>
          </Select>
        )}
      </FormField>
      <FormField id="mailbox-secret" label={secretLabel} hint={secretHint} error={errors.secret}>
        {(control) =>
          auth === 'key' ? (
            <textarea
              {...control}
              className={textareaClass}
              autoComplete="off"
              spellCheck={false}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          ) : (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )
        }
      </FormField>
      <FormField
        id="mailbox-host-key"
        label="Host key fingerprint"
        hint="As ssh-keygen -lf prints it (SHA256:…). Confirm it with the clearinghouse: no other server is trusted."
        error={errors.hostKeySha256}
      >
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={hostKeySha256}
            onChange={(e) => setHostKey(e.target.value)}
          />
        )}
      </FormField>
      <div className="grid gap-4 md:grid-cols-2">
        <FormField
          id="mailbox-outbound"
          label="Outbound folder"
          hint="Where 837P claims, 270 eligibility and 276 claim status requests go."
          error={errors.outboundDir}
        >
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              value={outboundDir}
              onChange={(e) => setOutboundDir(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          id="mailbox-inbound"
          label="Inbound folder"
          hint="Where 999, 277CA, 271, 277 and 835 files come; read files move to its processed folder."
          error={errors.inboundDir}
        >
          {(control) => (
            <Input {...control} autoComplete="off" value={inboundDir} onChange={(e) => setInboundDir(e.target.value)} />
          )}
        </FormField>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <FormField id="mailbox-poll" label="Check every (minutes)" hint="5 to 1440." error={errors.pollMinutes}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={5}
              max={1440}
              value={pollMinutes}
              onChange={(e) => setPollMinutes(e.target.value)}
            />
          )}
        </FormField>
        <FormField
          id="mailbox-evening"
          label="Evening send"
          hint="In the practice's time zone."
          error={errors.eveningTime}
        >
          {(control) => (
            <Input {...control} type="time" value={eveningTime} onChange={(e) => setEveningTime(e.target.value)} />
          )}
        </FormField>
        <FormField id="mailbox-failures" label="Work item after (failures in a row)" error={errors.maxFailures}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              value={maxFailures}
              onChange={(e) => setMaxFailures(e.target.value)}
            />
          )}
        </FormField>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: (result) => setOutcome({ ok: result.ok, text: result.message }),
              onError: (error) => setOutcome({ ok: false, text: failure(error) }),
            })
          }
        >
          {test.isPending ? 'Testing…' : 'Test connection'}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() =>
            run.mutate(undefined, {
              onSuccess: (result) => setOutcome({ ok: result.ok, text: result.message }),
              onError: (error) => setOutcome({ ok: false, text: failure(error) }),
            })
          }
        >
          {run.isPending ? 'Sending and fetching…' : 'Send and fetch now'}
        </Button>
      </div>
      <p role="status" className={outcome?.ok === false ? 'text-sm text-destructive' : 'text-sm'}>
        {outcome?.text ?? ''}
      </p>
      <MailboxState saved={saved} />
    </form>
  );
}

function MailboxState({ saved }: { saved: MailboxSettings }) {
  return (
    <dl className="grid gap-1 text-sm text-muted-foreground md:grid-cols-3">
      <div>
        <dt className="inline font-medium">Last success: </dt>
        <dd className="inline">{saved.lastSuccessAt ? momentText(saved.lastSuccessAt) : 'never'}</dd>
      </div>
      <div>
        <dt className="inline font-medium">Failures in a row: </dt>
        <dd className="inline">{saved.consecutiveFailures}</dd>
      </div>
      <div>
        <dt className="inline font-medium">Sends files made since: </dt>
        <dd className="inline">{saved.sendFrom ? momentText(saved.sendFrom) : 'not enabled yet'}</dd>
      </div>
      {saved.lastError && saved.consecutiveFailures > 0 && (
        <div className="md:col-span-3">
          <dt className="inline font-medium">Last error: </dt>
          <dd className="inline text-destructive">{saved.lastError}</dd>
        </div>
      )}
    </dl>
  );
}

/**
 * Settings → Clearinghouse (admin): the SFTP mailbox our 837P, 270 and 276 files go to and the 999, 277CA, 271, 277
 * and 835 files come from (docs/clearinghouse.md), and its log. The practice's EDI identifiers stay on the Practice tab.
 */
export function ClearinghouseTab() {
  const settings = useMailboxSettings();
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Clearinghouse mailbox</CardTitle>
          <CardDescription>
            The SFTP mailbox the clearinghouse gave the practice. Claim batches, eligibility inquiries and claim status
            requests go out; acknowledgements, eligibility and status answers and remittances come in, on the schedule
            below. Each evening the next working day&apos;s visits are checked and the claim status requests due are
            made. Nothing made before the mailbox is first enabled is sent.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {settings.isError ? (
            <p role="alert" className="text-sm text-destructive">
              The mailbox settings could not be loaded. {failure(settings.error)}
            </p>
          ) : settings.data ? (
            <MailboxForm key={settings.data.updatedAt ?? 'new'} saved={settings.data} />
          ) : (
            <p className="text-sm text-muted-foreground" role="status">
              Loading the mailbox settings…
            </p>
          )}
        </CardContent>
      </Card>
      <MailboxLog />
    </div>
  );
}
