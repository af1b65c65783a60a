// The app as the browser tests see it: a fresh embedded database (seeded on start) on the given port.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const port = process.argv[2] ?? '5055';
const dataDir = port === '5055' ? '.e2e-data' : `.e2e-data-${port}`;
rmSync(dataDir, { recursive: true, force: true });
const child = spawn('node', ['dist/server/main.js'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: port, DATA_DIR: dataDir, DEMO_MODE: 'true', NODE_ENV: 'test', LOG_LEVEL: 'warn' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
