// Finds a Chromium for the browser tests: CHROMIUM_PATH, else Debian's /usr/bin/chromium; on Debian as
// root it installs the `chromium` package when none is there (Playwright's own download cannot work here).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export async function ensureChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, but there is no file there.`);
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const isDebian = existsSync('/etc/debian_version');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isDebian && isRoot) {
    console.log("No Chromium found: installing Debian's chromium package for the browser tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
    throw new Error('apt-get installed chromium, but /usr/bin/chromium is still missing.');
  }
  throw new Error(
    'The browser tests need Chromium. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome executable, then run `npm test` again.',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(await ensureChromium());
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
