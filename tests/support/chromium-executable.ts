import { accessSync, constants } from 'node:fs';

/** Names a Chromium or Chrome binary to use instead of Debian's (e.g. on a developer's own machine). */
export const CHROMIUM_PATH_ENV = 'DEERFLOW_CHROMIUM_PATH';

/** Where Debian's `chromium` package, which `scripts/install-browser.sh` installs, puts the browser. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser the Temporal Web test drives, looked up as `scripts/install-browser.sh` does; null when there is none. */
export function chromiumExecutable(): string | null {
  const candidates = [process.env[CHROMIUM_PATH_ENV] ?? '', DEBIAN_CHROMIUM];
  return candidates.find((path) => path !== '' && isExecutable(path)) ?? null;
}
