// Scale benchmark of the Claims API. It starts the built server on an existing data
// folder, signs in as the billing admin and times the calls the Claims screen makes, end to end over HTTP.
//
//   npm run build
//   DATA_DIR=/tmp/scale npm run seed -- --claims 1000000
//   node bench/claims-scale.mjs --data-dir /tmp/scale [--runs 7] [--port 5097]
//
// Prints one Markdown table: each call's median and slowest time over the runs (after one warm-up call).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: 'data' },
    port: { type: 'string', default: '5097' },
    runs: { type: 'string', default: '7' },
  },
});
const runs = Number(values.runs);
const base = `http://localhost:${values.port}`;
const { fetch } = globalThis;

const server = spawn('node', ['dist/server/main.js'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PORT: values.port, DATA_DIR: values['data-dir'], LOG_LEVEL: 'warn', DEMO_MODE: 'true' },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

async function waitForServer() {
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error('the server did not start');
}

async function signIn() {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'billing.admin@healthcare.demo', password: 'billing_admin' }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { challengeId, demoCode } = await login.json();
  const mfa = await fetch(`${base}/api/auth/mfa`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ challengeId, code: demoCode }),
  });
  if (!mfa.ok) throw new Error(`mfa: ${mfa.status} ${await mfa.text()}`);
  const sid = /sid=([^;]+)/.exec(mfa.headers.get('set-cookie') ?? '')?.[1];
  if (!sid) throw new Error('no session cookie');
  return `sid=${sid}`;
}

async function timed(cookie, path) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie } });
  const body = await res.json();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

function describe(body) {
  if (Array.isArray(body.items) && typeof body.total === 'number') return `${body.items.length} of ${body.total}`;
  if (Array.isArray(body.items)) return `${body.items.length} rows`;
  if (body.summary) return `${body.summary.claims} claims`;
  return '';
}

try {
  await waitForServer();
  const cookie = await signIn();
  const { body: all } = await timed(cookie, '/api/claims?limit=1');
  const total = all.total;
  const { body: sample } = await timed(cookie, '/api/claims?limit=1&offset=123457');
  const account = sample.items[0]?.accountNumber ?? 'ACC';
  const lastName = (sample.items[0]?.patient ?? 'Okafor').split(' ').pop();

  const cases = [
    ['list, page 1 (newest first)', '/api/claims?limit=50'],
    ['list, deep page (offset 500,000)', '/api/claims?limit=50&offset=500000'],
    ['list, last page', `/api/claims?limit=50&offset=${Math.max(0, total - 50)}`],
    ['list, sorted by patient', '/api/claims?limit=50&sort=patient&dir=asc'],
    ['list, sorted by provider', '/api/claims?limit=50&sort=provider&dir=desc'],
    ['list, sorted by billed', '/api/claims?limit=50&sort=billedCents&dir=desc'],
    ['list, sorted by days AR', '/api/claims?limit=50&sort=daysAR&dir=desc'],
    ['list, payer + reason filter', '/api/claims?limit=50&payer=Medicaid&reason=CO%20197'],
    ['list, search patient name', `/api/claims?limit=50&search=${encodeURIComponent(lastName)}`],
    ['list, search account number', `/api/claims?limit=50&search=${encodeURIComponent(account)}`],
    ['list, search payer (a quarter of claims)', '/api/claims?limit=50&search=medicare'],
    ['overview, no filter', '/api/claims/overview'],
    ['overview, payer', '/api/claims/overview?payer=Medicare'],
    ['overview, reason', '/api/claims/overview?reason=CO-16'],
    ['overview, search patient name', `/api/claims/overview?search=${encodeURIComponent(lastName)}`],
    ['export, payer + reason', '/api/claims/export?payer=Tricare&reason=CO-197'],
    ['export, payer + reason group', '/api/claims/export?payer=Humana&reason=CO'],
  ];

  console.log(`\nClaims API on ${total.toLocaleString('en-US')} claims, ${runs} runs each after a warm-up\n`);
  console.log('| call | result | median ms | slowest ms |');
  console.log('| --- | --- | ---: | ---: |');
  for (const [name, path] of cases) {
    const { body } = await timed(cookie, path);
    const times = [];
    for (let i = 0; i < runs; i += 1) times.push((await timed(cookie, path)).ms);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`| ${name} | ${describe(body)} | ${median.toFixed(0)} | ${times[times.length - 1].toFixed(0)} |`);
  }
} finally {
  stop();
}
