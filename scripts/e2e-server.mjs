// The app as the browser tests see it: a fresh embedded database (seeded on start) on port 5055.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

rmSync('.e2e-data', { recursive: true, force: true });
const child = spawn('node', ['dist/server/main.js'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: '5055', DATA_DIR: '.e2e-data', DEMO_MODE: 'true', NODE_ENV: 'test', LOG_LEVEL: 'warn' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
