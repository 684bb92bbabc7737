/**
 * Headless Chromium for the browser tests (playwright-core driving Debian's chromium): the
 * page a user would open, with what it requested and every script or CSP error it logged.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Why browser tests are skipped here, or undefined when Chromium is installed. */
export const chromiumMissing = existsSync(chromiumPath) ? undefined : `${chromiumPath} not found (install it with \`apt-get install -y chromium\`)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface WatchedPage {
  readonly page: Page;
  /** Every URL the page requested. */
  readonly requests: string[];
  /** Console errors (CSP violations among them) and uncaught page errors. */
  readonly problems: string[];
}

export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, requests, problems };
}
