// Finds a Chromium: CHROMIUM_PATH, else Debian's. The browser tests and the quick bench ask for the headless
// shell (Debian's `chromium-headless-shell`, the same Chromium build without the full browser around it, which
// is what Playwright itself runs headless tests on: docs/adr/0005-headless-shell-for-tests.md); the screenshots
// and the full benchmark's Lighthouse runs use the whole browser, `chromium`. On Debian as root the package is
// installed when it is missing (Playwright's own download cannot work here); elsewhere the error says how.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function canInstallDebianPackages() {
  const isDebian = existsSync('/etc/debian_version');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isDebian && isRoot;
}

/** Installs a Debian package; true when it installed. A failure is printed, not thrown: the caller falls back. */
function aptInstall(name) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', name], { stdio: 'inherit', env });
  try {
    install();
    return true;
  } catch {
    // The package lists may be missing or stale (a fresh machine): read them, then try once more.
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
      install();
      return true;
    } catch (err) {
      console.error(`apt-get could not install ${name}: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
}

/**
 * The path of a Chromium to run. `headlessShell`: a headless run that draws nothing on a screen (the browser
 * tests, the quick bench), for which the headless shell takes about 40% less CPU than the whole browser; when it
 * is not there and cannot be installed, the whole browser does the same job.
 */
export async function ensureChromium({ headlessShell = false } = {}) {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, but there is no file there.`);
  }
  const [wanted, pkg] = headlessShell
    ? [DEBIAN_HEADLESS_SHELL, 'chromium-headless-shell']
    : [DEBIAN_CHROMIUM, 'chromium'];
  if (existsSync(wanted)) return wanted;
  if (canInstallDebianPackages()) {
    console.log(`No ${pkg} found: installing Debian's ${pkg} package…`);
    if (aptInstall(pkg) && existsSync(wanted)) return wanted;
  }
  if (headlessShell && existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  if (headlessShell && canInstallDebianPackages() && aptInstall('chromium') && existsSync(DEBIAN_CHROMIUM))
    return DEBIAN_CHROMIUM;
  throw new Error(
    'The browser tests need Chromium. Install it (Debian/Ubuntu: `sudo apt-get install chromium-headless-shell`, ' +
      'or `chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable, then run `npm test` again.',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(await ensureChromium({ headlessShell: process.argv.includes('--headless-shell') }));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
