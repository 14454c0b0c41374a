// Drives the MCP Inspector's web UI (@modelcontextprotocol/inspector
// 2.12.0) in headless Chromium (the Debian package, through playwright-core;
// no browser is downloaded) as a person would: connect with the server
// card's switch, open Tools, pick the tool, fill its arguments, Execute
// Tool, and answer each "Elicitation Request" dialog the Inspector opens.
//
// Usage: node inspector.mjs ERA EXAMPLE=INSPECTOR_URL...
//
// ERA is the --protocol-era the Inspectors were started with (legacy: a
// 2025-11-25 session, each question an elicitation/create on the open
// tools/call; modern: 2026-07-28, input_required results the Inspector
// retries), checked against the "MCP <version>" the server card shows.
// EXAMPLE is bookflight, deploy, billing or connect; the Inspector at
// INSPECTOR_URL (with its ?MCP_INSPECTOR_API_TOKEN=…) must be started on
// that example's endpoint (deploy, billing and connect with --header
// "Authorization: Bearer alice-token"). One Chromium runs all; each flow
// runs on a fresh page and connection. Prints one line per step and per
// flow, then "inspector ERA: ok, N flows"; or the flows that went wrong and
// "… FAIL", exiting 1. With MCPGEN_SCREENSHOTS set, keeps a PNG of each
// step there.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [era, ...targets] = process.argv.slice(2);
const wantVersion = { legacy: 'MCP 2025-11-25', modern: 'MCP 2026-07-28' }[era];
if (!wantVersion || targets.length === 0 || !targets.every((t) => /^[a-z]+=http/.test(t))) {
  console.error('usage: node inspector.mjs legacy|modern EXAMPLE=INSPECTOR_URL... (EXAMPLE: bookflight, deploy, billing, connect)');
  process.exit(2);
}
const chromiumPath = process.env.MCPGEN_CHROMIUM || '/usr/bin/chromium';
const shots = process.env.MCPGEN_SCREENSHOTS;
if (shots) mkdirSync(shots, { recursive: true });
const step = 30000; // ms: how long one step of the UI may take (CI machines are shared and slow)

// allFlows EXAMPLE NAME: what the user does, and the result's text it
// must end with.
const allFlows = {
  bookflight: {
    // A date that does not exist: the server asks again with the reason.
    'bad date asked again': async (ui) => {
      await ui.call('book_flight', { origin: 'SFO', destination: 'JFK' });
      let d = await ui.dialog('Which day should the flight leave');
      await d.text('Departure date', '2026-13-45');
      await d.submit();
      d = await ui.dialog('date: must be a date as YYYY-MM-DD');
      await d.text('Departure date', '2026-12-24');
      await d.submit();
      await ui.result(/^Booked 1 passenger from SFO to JFK on 2026-12-24\.$/);
    },
    accept: async (ui) => {
      await ui.call('book_flight', { origin: 'SFO', destination: 'JFK' });
      const d = await ui.dialog('Which day should the flight leave');
      await d.text('Departure date', '2026-12-24');
      await d.select('Time of day', 'Morning');
      await d.text('Passengers', '2');
      await d.submit();
      await ui.result(/^Booked 2 passengers from SFO to JFK on 2026-12-24 \(morning\)\.$/);
    },
    decline: async (ui) => {
      await ui.call('book_flight', { origin: 'SFO', destination: 'JFK' });
      await (await ui.dialog('Which day should the flight leave')).button('Decline');
      await ui.result(/^The user declined to give date, window, passengers: nothing booked\.$/);
    },
    cancel: async (ui) => {
      await ui.call('book_flight', { origin: 'SFO', destination: 'JFK' });
      await (await ui.dialog('Which day should the flight leave')).button('Cancel');
      await ui.result(/^Booking cancelled by the user; nothing booked\.$/);
    },
  },
  deploy: {
    // The tool's form, then the confirmation Accept asks: mistyped, asked
    // again with the reason, then typed right.
    'production, confirmation mistyped then right': async (ui) => {
      await ui.call('deploy', { service: 'api' });
      let d = await ui.dialog('Which environment should the service be deployed to?');
      await d.select('Environment', 'Production');
      await d.submit();
      d = await ui.dialog('This restarts 12 pods of api in production. Type the service name to confirm.');
      await d.text('Service name', 'apx');
      await d.submit();
      d = await ui.dialog('must be exactly "api"');
      await d.text('Service name', 'api');
      await d.submit();
      await ui.result(/^Deployed api to production \(12 pods restarted\)\.$/);
    },
  },
  billing: {
    // alice's accounts, listed for her at run time, as a select.
    'account chosen': async (ui) => {
      await ui.call('pay_invoice', { invoice: 'INV-7', amount: '42' });
      const d = await ui.dialog('Which account should pay this invoice?');
      const options = await d.select('Account', 'Savings ••002');
      if (options.join(', ') !== 'Checking ••001, Savings ••002, Card ••003') throw new Error(`alice's accounts offered: ${options.join(', ')}`);
      await d.submit();
      await ui.result(/^Charged 42\.00 to sav-002 for INV-7 \(charge ch_[0-9a-f]{16}\)\.$/);
    },
  },
  connect: {
    // URL mode: "Open in Browser" opens the server's page in a new tab,
    // where alice signs in and enters a key no account has; she clicks "I've
    // completed it"; the server asks again on a new page with the reason,
    // where she enters her key.
    'key refused, asked again, then imported': async (ui) => {
      await ui.call('import_contacts', {});
      let d = await ui.dialog('The contacts service needs your API key');
      await d.page('ck-alice-999');
      await d.button("I've completed it");
      d = await ui.dialog('no account has this key');
      await d.page('ck-alice-123');
      await d.button("I've completed it");
      await ui.result(/^Imported 3 contacts for alice\.$/);
    },
  },
};
for (const t of targets) {
  const example = t.slice(0, t.indexOf('='));
  if (!allFlows[example]) {
    console.error(`inspector: unknown example ${example}`);
    process.exit(2);
  }
}

const profile = mkdtempSync(join(tmpdir(), 'mcpgen-inspector-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
context.setDefaultTimeout(step);

const shotN = {};
async function shot(page, example, what) {
  if (!shots) return;
  shotN[example] = (shotN[example] ?? 0) + 1;
  const name = `inspector-${era}-${example}-${String(shotN[example]).padStart(2, '0')}-${what}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  await page.screenshot({ path: join(shots, `${name}.png`), animations: 'disabled' });
}

// ui returns the steps of one flow of example on page, with the Inspector
// at inspectorURL.
function ui(page, example, inspectorURL, log) {
  // connect turns the Connect switch on and waits for "Connected". The
  // switch is Mantine's, a visually hidden <input>: before the page has
  // laid it out, a click fails with "Element is not visible" or is lost
  // (the switch stays off; about one run in ten on a loaded 2-CPU machine).
  // So it is clicked again, up to three times, while it still reads off,
  // never while it reads on (that would disconnect).
  async function connect() {
    const sw = page.getByRole('switch', { name: /^Connect or disconnect/ });
    const connected = page.getByText('Connected', { exact: true });
    for (let attempt = 1; ; attempt++) {
      try {
        if (!(await sw.isChecked())) await sw.click({ force: true, timeout: 5000 });
        await connected.waitFor({ timeout: 10000 });
        return;
      } catch (e) {
        if (attempt === 3) throw e;
        log(`not connected (attempt ${attempt}: ${String(e?.message ?? e).split('\n')[0]}); trying again`);
        await page.waitForTimeout(500);
      }
    }
  }
  return {
    // call connects, opens the tool and executes it with args.
    async call(tool, args) {
      log('opening the Inspector, connecting');
      await page.goto(inspectorURL);
      await connect();
      const card = await page.locator('body').innerText();
      if (!card.includes(wantVersion)) throw new Error(`the server card does not show ${wantVersion}:\n${card.slice(0, 600)}`);
      await shot(page, example, 'connected');
      await page.getByText('Tools', { exact: true }).first().click();
      await page.getByRole('button', { name: tool, exact: true }).click();
      for (const [name, value] of Object.entries(args)) {
        await page.getByRole('textbox', { name, exact: true }).fill(String(value));
      }
      await shot(page, example, `${tool}-arguments`);
      await page.getByRole('button', { name: 'Execute Tool' }).click();
      log(`connected (${wantVersion}), executed ${tool} ${JSON.stringify(args)}`);
    },
    // dialog waits for the Elicitation Request dialog whose text contains
    // message (a result instead fails, with its text) and returns its steps.
    async dialog(message) {
      const d = page.getByRole('dialog').filter({ hasText: 'Elicitation Request' }).filter({ hasText: message });
      const results = page.getByRole('button', { name: 'Close results' });
      await d.or(results).first().waitFor();
      if (!(await d.isVisible())) throw new Error(`no question saying ${JSON.stringify(message)}; the result: ${await resultText()}`);
      const text = await d.innerText();
      const el = await d.elementHandle();
      // gone waits until this question's dialog has closed or shows another
      // question.
      const gone = () => page.waitForFunction(([e, t]) => !e.isConnected || e.innerText !== t, [el, text]);
      log(`asked: ${JSON.stringify(text.split('\n').filter(Boolean)[1] ?? '')}`);
      await shot(page, example, 'asked');
      return {
        async text(label, value) {
          await d.getByRole('textbox', { name: label, exact: true }).fill(value);
          log(`  ${label}: ${value}`);
        },
        // select opens the select labelled label, picks option by its
        // title, and returns the titles it offered.
        async select(label, option) {
          await d.getByRole('textbox', { name: label, exact: true }).click();
          const pick = page.getByRole('option', { name: option, exact: true });
          await pick.waitFor();
          const offered = await page.getByRole('option').allInnerTexts();
          await pick.click();
          log(`  ${label}: ${option} (of ${offered.join(', ')})`);
          return offered;
        },
        async submit() {
          await shot(page, example, 'answered');
          await d.getByRole('button', { name: 'Submit' }).click();
          log('  Submit');
          await gone();
        },
        async button(name) {
          await shot(page, example, `before-${name}`);
          await d.getByRole('button', { name, exact: true }).click();
          log(`  ${name}`);
          await gone();
        },
        // page opens the URL-mode page with "Open in Browser", signs in as
        // alice when asked, enters key and submits.
        async page(key) {
          const [tab] = await Promise.all([page.context().waitForEvent('page'), d.getByRole('button', { name: /Open in Browser/ }).click()]);
          await tab.waitForLoadState();
          if (await tab.locator('input[name=username]').count()) {
            await tab.locator('input[name=username]').fill('alice');
            await tab.locator('input[name=password]').fill('alice-password');
            await Promise.all([tab.waitForNavigation(), tab.locator('form [type=submit]').click()]);
          }
          await tab.locator('input[name=api_key]').fill(key);
          await shot(tab, example, 'page');
          await Promise.all([tab.waitForNavigation(), tab.locator('form [type=submit]').click()]);
          const h1 = await tab.locator('h1').innerText();
          if (h1 !== 'Received') throw new Error(`the page after entering the key says ${JSON.stringify(h1)}`);
          log(`  on the page (${new URL(tab.url()).pathname}): signed in as alice, entered a key: ${h1}`);
          await tab.close();
          await page.bringToFront();
        },
      };
    },
    // result waits for the tool's result and checks its text.
    async result(want) {
      await page.getByRole('button', { name: 'Close results' }).waitFor().catch(() => {});
      const text = await resultText();
      await shot(page, example, 'result');
      log(`result: ${text}`);
      if (!want.test(text)) throw new Error(`result ${JSON.stringify(text)}, want ${want}`);
    },
  };

  // resultText returns the Results panel's text ("Tool Error" first for an
  // error), or says that there is none.
  async function resultText() {
    if (!(await page.getByRole('button', { name: 'Close results' }).isVisible())) {
      const open = await page.getByRole('dialog').allInnerTexts();
      return `(no result; open dialogs: ${JSON.stringify(open)})`;
    }
    const body = await page.locator('body').innerText();
    const m = body.match(/\nResults\n(?:Tool Error\n)?([^\n]*)/);
    return m ? (body.includes('\nResults\nTool Error\n') ? 'Tool Error: ' : '') + m[1] : body.slice(0, 800);
  }
}

let failed = 0;
let total = 0;
for (const t of targets) {
  const example = t.slice(0, t.indexOf('='));
  const inspectorURL = t.slice(t.indexOf('=') + 1);
  for (const [name, flow] of Object.entries(allFlows[example])) {
    total++;
    const page = await context.newPage();
    const log = (s) => console.log(`inspector ${era} ${example} ${name}: ${s}`);
    const start = Date.now();
    try {
      await flow(ui(page, example, inspectorURL, log));
      log(`ok (${Date.now() - start} ms)`);
    } catch (err) {
      failed++;
      await shot(page, example, 'failed').catch(() => {});
      const seen = await page.locator('body').innerText({ timeout: 2000 }).catch(() => '(no page text)');
      console.error(`inspector ${era} ${example} ${name}: FAIL: ${err?.message ?? err}\n  the page read:\n    ${seen.slice(0, 800).replace(/\n+/g, '\n    ')}`);
    } finally {
      for (const p of context.pages()) await p.close();
    }
  }
}
await context.close();
rmSync(profile, { recursive: true, force: true });
if (failed) {
  console.error(`inspector ${era}: FAIL, ${failed} of ${total} flows`);
  process.exit(1);
}
console.log(`inspector ${era}: ok, ${total} flows`);
