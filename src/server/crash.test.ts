/**
 * Nothing is lost on a crash (docs/security.md). The real server (src/server/main.ts, bundled as `npm start`
 * runs it) runs as a child process on its own data folder with its embedded
 * PostgreSQL. A stream of concurrent writes goes through the API; at a random moment the app server — or,
 * in the other series, the PostgreSQL postmaster — is killed with SIGKILL. After a restart every write that
 * was acknowledged (2xx) is there, nothing is half-written (a record without its audit entry, an audit entry
 * without its record, an appointment without its patient, an appeal without its claim's new status), and the
 * audit hash chain verifies. Then a graceful SIGTERM: requests in flight finish with their answers, new
 * connections are refused, the process exits 0 and PostgreSQL was shut down cleanly (no recovery next start).
 *
 * CRASH_SEED=<n> reproduces a failing run's kill moments and write mix (the seed is in the test names).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedConnection, projectRoot } from '@/server/db/client';
import { startOnFreePort } from '@/testing/free-port';
import { signInOverHttp, type HttpSession as Session } from '@/testing/http-sign-in';
import { DEFAULT_PRACTICE_HOURS } from '@/features/settings/practice.schema';

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
/**
 * Kills per series: each kill costs a restart (about 8 s alone on a 2.1 GHz 2-core machine, several times
 * that inside npm test), and the moments are random in every run (CRASH_SEED), so runs over time cover many
 * more moments than one run does. One per series: a second kill cost npm test two more restarts for one more
 * moment each, which the next runs draw anyway.
 */
const KILLS_PER_SERIES = 1;
const WRITERS = 4;
/** The advisory lock every audit append takes (audit.queries.ts): holding it keeps writes in flight. */
const AUDIT_CHAIN_LOCK = 7_346_001;
/** global/pg_control's DBState (PostgreSQL's pg_control.h): DB_SHUTDOWNED, i.e. the next start needs no recovery. */
const DB_SHUTDOWNED = 1;

/** mulberry32: small, seedable, good enough to pick moments and operations. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = random(SEED);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinic-crash-'));
const pgDir = path.join(dataDir, 'pg');
/**
 * src/server/main.ts bundled as scripts/build-server.mjs bundles it for `npm start`, but without the rest of
 * the build (the client is not needed). Twenty restarts through tsx would spend most of the test loading
 * modules. Inside the project, so its npm packages resolve from node_modules.
 */
const serverBundle = path.join(projectRoot(), 'node_modules', '.cache', `crash-test-${process.pid}`, 'main.js');

interface Server {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  /** How many POST /api/patients requests it has received (its request log at LOG_LEVEL=info). */
  patientPosts: () => number;
}

/** Starts the server, again on another port should its first be taken before it listens (startOnFreePort). */
function startServer(): Promise<Server> {
  return startOnFreePort(startServerOn);
}

async function startServerOn(port: number): Promise<Server> {
  const child = spawn(process.execPath, [serverBundle], {
    cwd: projectRoot(),
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let patientPosts = 0;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    patientPosts += text.match(/"method":"POST","url":"\/api\/patients"/g)?.length ?? 0;
    output = `${output}${text}`.slice(-5000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within 90 s:\n${output}`);
    // Bounded: whatever holds the port may accept a connection and never answer.
    const ok = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, baseUrl, exited, output: () => output, patientPosts: () => patientPosts };
}

/** The embedded PostgreSQL's postmaster: pid and port from the data folder's lock file. */
function postmaster(): { pid: number; port: number } {
  const lines = readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(embeddedConnection(dataDir));
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The state PostgreSQL recorded in pg_control when it last stopped (or that it is running). */
function clusterState(): number {
  // ControlFileData: system_identifier (8 bytes), pg_control_version (4), catalog_version_no (4), state (4).
  return readFileSync(path.join(pgDir, 'global', 'pg_control')).readInt32LE(16);
}

const signIn = (baseUrl: string) => signInOverHttp(baseUrl, 'admin');

function post(baseUrl: string, session: Session, url: string, body: unknown) {
  return fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** Every write the server acknowledged with a 2xx, by the id it returned (appeals: by claim id). */
const acknowledged = { patients: [] as number[], appointments: [] as number[], appeals: [] as number[] };
let writesTried = 0;
let slot = 0;
let providerId = 0;
let patientIds: number[] = [];
let appealable: number[] = [];

/**
 * The first Monday 400 days from today: past anything the seed books, well inside the two years ahead a
 * visit may be booked.
 */
const FIRST_MONDAY = (() => {
  const day = new Date(Date.UTC(new Date().getFullYear(), new Date().getMonth(), new Date().getDate() + 400));
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day;
})();

/**
 * A free slot for one provider: weekdays from FIRST_MONDAY on, one visit plus the buffer apart inside
 * opening hours (the fresh data folder's practice keeps the default hours, length and buffer).
 */
function nextSlot() {
  const { appointmentMinutes, bufferMinutes, workdayStart, workdayEnd } = DEFAULT_PRACTICE_HOURS;
  const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const perDay = Math.floor(
    (minutesOf(workdayEnd) - minutesOf(workdayStart) - appointmentMinutes) / (appointmentMinutes + bufferMinutes) + 1,
  );
  const index = slot++;
  const dayIndex = Math.floor(index / perDay);
  const day = new Date(FIRST_MONDAY);
  day.setUTCDate(day.getUTCDate() + Math.floor(dayIndex / 5) * 7 + (dayIndex % 5));
  const minutes = minutesOf(workdayStart) + (index % perDay) * (appointmentMinutes + bufferMinutes);
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return { date: day.toISOString().slice(0, 10), time };
}

/** One write of a seeded mix; a 2xx answer is recorded, anything else (the crash) is not. */
async function oneWrite(baseUrl: string, session: Session): Promise<void> {
  writesTried += 1;
  const pick = rng();
  const n = writesTried;
  if (pick < 0.45) {
    const response = await post(baseUrl, session, '/api/patients', {
      name: `Crash Test ${n}`,
      dob: '1970-01-01',
      // A phone of its own: a second patient with one already on file would be refused as a likely duplicate.
      phone: `(555) 01${String(Math.floor(n / 10_000) % 10)}-${String(n % 10_000).padStart(4, '0')}`,
      mrn: `CRASH-${SEED}-${n}`,
      notes: 'written while the server may be killed',
    });
    if (response.status === 201) {
      const id = ((await response.json()) as { id: number }).id;
      acknowledged.patients.push(id);
      patientIds.push(id);
    }
  } else if (pick < 0.85 || appealable.length === 0) {
    const patientId = patientIds[Math.floor(rng() * patientIds.length)];
    const response = await post(baseUrl, session, '/api/appointments', {
      patientId,
      providerId,
      reason: `Crash test visit ${n}`,
      ...nextSlot(),
    });
    if (response.status === 201) acknowledged.appointments.push(((await response.json()) as { id: number }).id);
  } else {
    // An appeal moves the claim out of Denied, so each claim is tried once, answered or not.
    const claimId = appealable.pop();
    const response = await post(baseUrl, session, `/api/claims/${claimId}/appeals`, {
      reason: `Crash test appeal ${n}`,
      note: 'filed while the server may be killed',
    });
    if (response.ok && claimId !== undefined) acknowledged.appeals.push(claimId);
  }
}

async function checkNothingLostOrHalfWritten(baseUrl: string, session: Session) {
  const present = async (sql: string, ids: number[]) =>
    (await query<{ id: number }>(sql, [ids])).map((r) => r.id).sort((a, b) => a - b);
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  // Every acknowledged write is there, whole: with its audit entry, and what it depends on.
  expect(
    await present(
      `select p.id from patients p where p.id = any($1)
         and exists (select 1 from audit_log a where a.action = 'patient.create' and a.resource = 'patient/' || p.id)`,
      acknowledged.patients,
    ),
  ).toEqual(sorted(acknowledged.patients));
  expect(
    await present(
      `select ap.id from appointments ap join patients p on p.id = ap.patient_id where ap.id = any($1)
         and exists (select 1 from audit_log a where a.action = 'appointment.create' and a.resource = 'appointment/' || ap.id)`,
      acknowledged.appointments,
    ),
  ).toEqual(sorted(acknowledged.appointments));
  expect(
    await present(
      `select c.id from claims c where c.id = any($1) and c.status = 'Appealed'
         and exists (select 1 from claim_appeals ca where ca.claim_id = c.id)
         and exists (select 1 from audit_log a where a.action = 'claim.appeal' and a.resource = 'claim/' || c.id)`,
      acknowledged.appeals,
    ),
  ).toEqual(sorted(acknowledged.appeals));

  // Nothing half-written, acknowledged or not: each record of this test has exactly one audit entry, each
  // audit entry its record, each appeal its claim moved to Appealed.
  const halfWritten = await query<{ kind: string; ref: string }>(
    `select 'patient without one audit entry' as kind, p.id::text as ref from patients p
       where p.mrn like 'CRASH-%'
         and (select count(*) from audit_log a where a.action = 'patient.create' and a.resource = 'patient/' || p.id) <> 1
     union all
     select 'appointment without one audit entry', ap.id::text from appointments ap
       where ap.reason like 'Crash test visit %'
         and (select count(*) from audit_log a where a.action = 'appointment.create' and a.resource = 'appointment/' || ap.id) <> 1
     union all
     select 'audit entry without its record', a.resource from audit_log a
       where (a.action = 'patient.create' and not exists (select 1 from patients p where a.resource = 'patient/' || p.id))
          or (a.action = 'appointment.create' and not exists (select 1 from appointments ap where a.resource = 'appointment/' || ap.id))
     union all
     select 'appeal without Appealed claim or audit entry', ca.claim_id::text from claim_appeals ca join claims c on c.id = ca.claim_id
       where ca.reason like 'Crash test appeal %'
         and (c.status <> 'Appealed' or not exists (select 1 from audit_log a where a.action = 'claim.appeal' and a.resource = 'claim/' || c.id))`,
  );
  expect(halfWritten).toEqual([]);

  // The audit chain verifies end to end (the product's own check), over every entry (verifying is itself
  // audited afterwards, so the count is taken before).
  const [count] = await query<{ n: number }>('select count(*)::int as n from audit_log');
  const verify = await fetch(`${baseUrl}/api/audit/verify`, { headers: { cookie: session.cookie } });
  expect(verify.status).toBe(200);
  const chain = (await verify.json()) as { ok: boolean; checked: number; firstBreak: unknown };
  expect(chain.firstBreak).toBeNull();
  expect(chain.ok).toBe(true);
  expect(chain.checked).toBeGreaterThanOrEqual(count?.n ?? Infinity);
}

const acknowledgedCount = () =>
  acknowledged.patients.length + acknowledged.appointments.length + acknowledged.appeals.length;

/**
 * Writes with WRITERS in parallel until `kill` has happened and all have settled. The kill comes once this
 * round has had 1–3 writes acknowledged (seeded) and then a seeded 0–500 ms later, while the writers are
 * still sending: a moment in the stream of writes, not on the clock, so a slow runner still kills with
 * writes both acknowledged and in flight.
 */
async function writeUntilKilled(baseUrl: string, session: Session, kill: () => Promise<void>) {
  let stop = false;
  const writers = Array.from({ length: WRITERS }, async () => {
    while (!stop) await oneWrite(baseUrl, session).catch(() => {}); // connection reset: not acknowledged
  });
  const wanted = acknowledgedCount() + 1 + Math.floor(rng() * 3);
  const delay = Math.floor(rng() * 500);
  const deadline = Date.now() + 60_000;
  // With only a few kills a run, the first could come before a patient or an appointment was written, and
  // there would be nothing of that kind to check: the kill waits for one of each (a mix the server refuses
  // then fails here, named).
  const eachKind = () => acknowledged.patients.length > 0 && acknowledged.appointments.length > 0;
  while (acknowledgedCount() < wanted || !eachKind()) {
    if (Date.now() > deadline) {
      stop = true;
      await Promise.all(writers);
      throw new Error(
        `within 60 s, ${acknowledged.patients.length} patients and ${acknowledged.appointments.length} appointments acknowledged (${writesTried} tried)`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, delay));
  await kill();
  stop = true;
  await Promise.all(writers);
}

let server: Server | null = null;
let session: Session;

beforeAll(async () => {
  await build({
    entryPoints: [path.join(projectRoot(), 'src/server/main.ts')],
    outfile: serverBundle,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    alias: { '@': path.join(projectRoot(), 'src') },
    logLevel: 'warning',
  });
  server = await startServer(); // first start: initialises the data folder and seeds the demo clinic
  session = await signIn(server.baseUrl);
  const [provider] = await query<{ id: number }>('select id from providers where active order by id limit 1');
  providerId = provider?.id ?? 0;
  patientIds = (await query<{ id: number }>('select id from patients order by id limit 20')).map((r) => r.id);
  appealable = (await query<{ id: number }>(`select id from claims where status = 'Denied' order by id`)).map(
    (r) => r.id,
  );
}, 180_000);

afterAll(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  // A postmaster orphaned by a failed run must not outlive the test.
  if (existsSync(path.join(pgDir, 'postmaster.pid'))) {
    try {
      process.kill(postmaster().pid, 'SIGQUIT');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(path.dirname(serverBundle), { recursive: true, force: true });
});

describe(`crash safety (CRASH_SEED=${SEED})`, () => {
  it(`SIGKILL of the app server at random moments (${KILLS_PER_SERIES} per run): every acknowledged write survives whole`, async () => {
    for (let kill = 1; kill <= KILLS_PER_SERIES; kill += 1) {
      const running = server;
      if (!running) throw new Error('no server');
      await writeUntilKilled(running.baseUrl, session, async () => {
        running.child.kill('SIGKILL');
        await running.exited;
      });
      // Its PostgreSQL lives on, orphaned; the restart must take over the data folder all the same.
      server = await startServer();
      await checkNothingLostOrHalfWritten(server.baseUrl, session);
    }
  }, 240_000);

  it(`SIGKILL of PostgreSQL at random moments (${KILLS_PER_SERIES} per run): every acknowledged write survives whole`, async () => {
    for (let kill = 1; kill <= KILLS_PER_SERIES; kill += 1) {
      const running = server;
      if (!running) throw new Error('no server');
      const before = acknowledgedCount();
      await writeUntilKilled(running.baseUrl, session, async () => {
        process.kill(postmaster().pid, 'SIGKILL');
        // Without its database the app server exits with an error, for the service manager to restart it.
        expect(await running.exited).toEqual({ code: 1, signal: null });
      });
      server = await startServer();
      await checkNothingLostOrHalfWritten(server.baseUrl, session);
      const after = acknowledgedCount();
      expect(after).toBeGreaterThanOrEqual(before);
    }
  }, 240_000);

  it('SIGTERM: requests in flight get their answers, new connections are refused, PostgreSQL stops cleanly', async () => {
    const running = server;
    if (!running) throw new Error('no server');
    // Holding the audit chain's lock keeps every write waiting inside its transaction: truly in flight.
    const holder = new pg.Client(embeddedConnection(dataDir));
    holder.on('error', () => {}); // the test failing midway kills the database under it
    await holder.connect();
    await holder.query('select pg_advisory_lock($1)', [AUDIT_CHAIN_LOCK]);
    const postsBefore = running.patientPosts();
    const inFlight = Array.from({ length: 6 }, (_, i) =>
      post(running.baseUrl, session, '/api/patients', {
        name: `Sigterm Test ${i}`,
        dob: '1970-01-01',
        phone: `(555) 020-000${i}`,
        mrn: `CRASH-TERM-${SEED}-${i}`,
      }),
    );
    for (const request of inFlight) request.catch(() => {}); // awaited below; a failing test must not leave them unhandled
    for (let waited = 0; ; waited += 50) {
      const [waiting] = await query<{ n: number }>(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
        [AUDIT_CHAIN_LOCK],
      );
      if ((waiting?.n ?? 0) >= 1 && running.patientPosts() - postsBefore === 6) break;
      if (waited > 20_000) throw new Error(`only ${running.patientPosts() - postsBefore} writes reached the server`);
      await new Promise((r) => setTimeout(r, 50));
    }

    running.child.kill('SIGTERM');
    // The listener closes once the signal's handler has run: on a starved machine that took over half a second,
    // and a connection that came in between was reset rather than refused. So the check waits for a refusal,
    // while the writes it holds keep the server from exiting.
    let refused = '';
    for (const deadline = Date.now() + 30_000; refused !== 'ECONNREFUSED' && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      refused = await fetch(`${running.baseUrl}/api/health`).then(
        () => 'answered',
        (err: unknown) => String((err as { cause?: { code?: string } }).cause?.code),
      );
    }
    expect(refused).toBe('ECONNREFUSED');
    expect(running.child.exitCode).toBeNull(); // still finishing the requests it holds

    await holder.query('select pg_advisory_unlock($1)', [AUDIT_CHAIN_LOCK]);
    await holder.end();
    const answers = await Promise.all(inFlight);
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { id: number }).id));
    // Promptly: clients' keep-alive connections must not hold the shutdown open past a service manager's
    // patience (systemd waits 90 s, Kubernetes 30 s, then kills).
    const late = new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000));
    expect(await Promise.race([running.exited, late])).toEqual({ code: 0, signal: null });

    // PostgreSQL was shut down, not left running or killed: no lock file, and a state needing no recovery.
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
    expect(clusterState()).toBe(DB_SHUTDOWNED);

    server = await startServer();
    acknowledged.patients.push(...ids);
    await checkNothingLostOrHalfWritten(server.baseUrl, session);
  });
});
