// Loads a speedscope file into speedscope's own built web app (the `speedscope` npm package), from
// disk, in headless Chromium, the way a person would (the Browse button's file input), and prints
// what the app shows as JSON: the page title, the page's text in the sandwich view of profile
// (thread) INDEX (every frame with its total and self weight), and any page error or alert.
// Usage: node speedscope.mjs FILE.speedscope.json [INDEX]
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.join(here, 'node_modules/speedscope/dist/release/index.html');
const file = path.resolve(process.argv[2]);
const index = Number(process.argv[3] || 0);
const browser = await chromium.launch({
  executablePath: process.env.HPM_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-unsafe-swiftshader'],
});
try {
  // Tall: the sandwich table draws only the rows in view, and every row is to be read.
  const page = await browser.newPage({ viewport: { width: 1600, height: 4000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', async (d) => { errors.push('dialog: ' + d.message()); await d.dismiss(); });
  await page.goto('file://' + app);
  await page.setInputFiles('#file', file);
  // The title becomes "<name> - speedscope" once the import has finished.
  await page.waitForFunction(() => document.title.endsWith(' - speedscope'), null, { timeout: 30000 }).catch(() => {});
  // The app opens on the file's activeProfileIndex; its toolbar names the profile shown as
  // "NAME (K/N)". Step to profile INDEX with 'n' (next) or 'p' (previous).
  const shown = () => page.evaluate(() => { const m = document.body.innerText.match(/\((\d+)\/(\d+)\)/); return m ? [+m[1] - 1, +m[2]] : [0, 1]; });
  for (let [at, count] = await shown(), steps = 0; at !== index && steps < count; steps++) {
    await page.keyboard.press(at < index ? 'n' : 'p');
    [at, count] = await shown();
  }
  await page.keyboard.press('3'); // the sandwich view: every frame with its total and self weight, as text
  // The table's header comes first, its rows a frame or more later: wait for rows.
  await page.waitForFunction(() => {
    const after = document.body.innerText.split('Symbol Name')[1];
    return after !== undefined && after.split('\n').filter((l) => l.trim() !== '').length >= 3;
  }, null, { timeout: 10000 }).catch(() => {});
  const body = await page.evaluate(() => document.body.innerText);
  console.log(JSON.stringify({ title: await page.title(), body, errors }));
} finally {
  await browser.close();
}
