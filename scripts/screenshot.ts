/**
 * `npm run screenshot -- <url> <out.png> [width] [wait-ms]`: a full-page screenshot in Debian's
 * Chromium, with console errors printed, to look at a screen as a person would.
 */
import { chromium } from '@playwright/test';

const [url, out, width = '1280', wait = '2500'] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: npm run screenshot -- <url> <out.png> [width] [wait-ms]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      console.log(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await page.goto(url);
  await page.waitForTimeout(Number(wait));
  await page.screenshot({ path: out, fullPage: true });
  console.log(`saved ${out}`);
} finally {
  await browser.close();
}
