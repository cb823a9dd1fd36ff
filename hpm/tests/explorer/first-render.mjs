// Time to first render of an `hpm explore` page in headless Chromium (bench/explorer-size.sh):
// `node first-render.mjs PAGE.html [RUNS]` prints the median over RUNS of the time from navigation
// start to the first drawn flame graph (the page's own mark), and of the wall time of page.goto
// until then, in ms.
import { chromium } from 'playwright-core';

const [file, runsArg] = process.argv.slice(2);
const runs = +(runsArg || 3);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page_ms = [], wall_ms = [];
let steps = null;
for (let i = 0; i < runs; i++) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const t = Date.now();
  await page.goto('file://' + file, { timeout: 120000 });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
  wall_ms.push(Date.now() - t);
  page_ms.push(await page.evaluate(() => window.hpmExplorer.firstRenderAt));
  steps = await page.evaluate(() => window.hpmExplorer.timings);
  const drawn = +(await page.$eval('#flame', (c) => c.dataset.drawn));
  if (errors.length || !(drawn > 0)) { console.error('page failed:', errors.join('; '), 'drawn', drawn); process.exit(1); }
  await page.close();
}
await browser.close();
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const round = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, Math.round(v)]));
console.log(`steps_ms ${JSON.stringify(round)}`);
console.log(`first_render_ms ${median(page_ms).toFixed(0)} goto_to_render_ms ${median(wall_ms)} runs ${runs}`);
