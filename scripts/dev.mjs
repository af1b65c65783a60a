// `npm run dev`: the API (restarted on change by tsx watch) on PORT (default 5000) and Vite with hot
// reload on http://localhost:5173, which proxies /api to the API so cookies stay same-origin.
import { spawn } from 'node:child_process';

const env = { ...process.env, PORT: process.env.PORT ?? '5000' };
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
];
console.log('API on http://localhost:%s, app with hot reload on http://localhost:5173', env.PORT);

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGINT');
  setTimeout(() => process.exit(code), 3000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
