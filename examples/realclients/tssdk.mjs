// Drives mcpgen's examples with the TypeScript SDK most TypeScript MCP
// clients embed, @modelcontextprotocol/sdk 1.32.2 (protocol 2025-11-25:
// over Streamable HTTP a session with Mcp-Session-Id, over stdio the
// process's pipes). Every elicitation/create the server sends during a
// tools/call is answered by the client's own handler, in the call, with the
// next answer of the scenario.
//
// Usage:
//
//   node tssdk.mjs http URL [TOKEN] -- SCENARIO...
//   node tssdk.mjs stdio COMMAND [ARG...] -- SCENARIO...
//
// TOKEN is sent as "Authorization: Bearer TOKEN". SCENARIO is one of the
// names in `scenarios` below; each runs on its own connection, one after the
// other. Prints one line per question ("tssdk SCENARIO: asked N: …") and per
// result ("tssdk SCENARIO: protocol V, session S: TEXT"), then
// "tssdk: ok, N scenarios"; or the scenarios that went wrong and
// "tssdk: FAIL, F of N scenarios", exiting 1.
//
// The connect scenario is URL mode: its handler prints "url URL" and accepts
// at once (the link was opened); whoever runs the script completes the page
// (examples/realclients' TestTSSDKConnect, in Chromium), and the call must
// then end with the result and notifications/elicitation/complete carrying
// the request's elicitationId.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

// A scenario: the tool and its arguments, one answer per question in order
// (a function of the request's params that returns the ElicitResult, after
// checking the question), and what the result's text must be.
const scenarios = {
  // A bad date is refused and asked again with the reason; then booked.
  'bookflight-reask': {
    tool: 'book_flight', args: { origin: 'SFO', destination: 'JFK' },
    answers: [
      (p) => { has(p, 'date'); return accept({ date: '2026-13-45' }); },
      (p) => {
        has(p, 'date');
        if (!p.message.includes('date: must be a date as YYYY-MM-DD')) throw new Error(`no reason in ${JSON.stringify(p.message)}`);
        return accept({ date: '2026-12-24' });
      },
    ],
    want: /^Booked 1 passenger from SFO to JFK on 2026-12-24\.$/,
  },
  'bookflight-accept': {
    tool: 'book_flight', args: { origin: 'SFO', destination: 'JFK' },
    answers: [(p) => { has(p, 'date', 'window', 'passengers'); return accept({ date: '2026-12-24', window: 'morning', passengers: 2 }); }],
    want: /^Booked 2 passengers from SFO to JFK on 2026-12-24 \(morning\)\.$/,
  },
  'bookflight-decline': {
    tool: 'book_flight', args: { origin: 'SFO', destination: 'JFK' },
    answers: [(p) => { has(p, 'date'); return { action: 'decline' }; }],
    want: /nothing booked/,
  },
  'bookflight-cancel': {
    tool: 'book_flight', args: { origin: 'SFO', destination: 'JFK' },
    answers: [(p) => { has(p, 'date'); return { action: 'cancel' }; }],
    want: /cancelled/,
  },
  // Three questions in one call: the tool's form, then the typed
  // confirmation asked from Accept, mistyped, then right.
  'deploy-confirm': {
    tool: 'deploy', args: { service: 'api' },
    answers: [
      (p) => { has(p, 'environment'); return accept({ environment: 'production' }); },
      (p) => {
        has(p, 'confirm');
        if (!p.message.includes('12 pods of api')) throw new Error(`not the plan's question: ${JSON.stringify(p.message)}`);
        return accept({ confirm: 'apx' });
      },
      (p) => {
        has(p, 'confirm');
        if (!p.message.includes('"api"')) throw new Error(`no reason in ${JSON.stringify(p.message)}`);
        return accept({ confirm: 'api' });
      },
    ],
    want: /^Deployed api to production \(12 pods restarted\)\.$/,
  },
  // alice's accounts as a titled select, listed for her by the handler;
  // one of them pays.
  'billing-account': {
    tool: 'pay_invoice', args: { invoice: 'INV-7', amount: 42 },
    answers: [(p) => { accounts(p); return accept({ account: 'sav-002' }); }],
    want: /^Charged 42\.00 to sav-002 for INV-7 \(charge ch_[0-9a-f]{16}\)\.$/,
  },
  // URL mode: the key is entered on the server's page, never in the
  // client. The first key entered there is refused by the contacts service
  // and asked again, on a new page, with the reason; the second is right.
  connect: {
    tool: 'import_contacts', args: {}, url: true,
    answers: [
      (p) => openPage(p),
      (p) => {
        if (!/no account has this key/.test(p.message)) throw new Error(`no reason in ${JSON.stringify(p.message)}`);
        return openPage(p);
      },
    ],
    want: /^Imported 3 contacts for alice\.$/,
  },
};

// openPage hands a URL-mode request's page to whoever completes it (the
// line "url URL" on stdout) and accepts: the link was opened.
function openPage(p) {
  if (p.mode !== 'url' || !p.url || !p.elicitationId) throw new Error(`not a URL-mode request: ${JSON.stringify(p)}`);
  console.log(`url ${p.url}`);
  return { action: 'accept' };
}

function accept(content) { return { action: 'accept', content }; }

// has checks that the form asks each of names.
function has(p, ...names) {
  const props = p.requestedSchema?.properties ?? {};
  for (const n of names) {
    if (!(n in props)) throw new Error(`no ${n} field in ${JSON.stringify(p)}`);
  }
}

// accounts checks that the form offers exactly alice's accounts, whether as
// a titled select (oneOf) or, downgraded, enum + enumNames.
function accounts(p) {
  const a = p.requestedSchema?.properties?.account ?? {};
  const got = (a.oneOf ?? []).map((o) => o.const).concat(a.enum ?? []);
  if (got.join(',') !== 'chk-001,sav-002,crd-003') throw new Error(`not alice's accounts: ${JSON.stringify(a)}`);
}

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
if (sep < 2 || sep === argv.length - 1 || !['http', 'stdio'].includes(argv[0])) {
  console.error('usage: node tssdk.mjs http URL [TOKEN] -- SCENARIO... | stdio COMMAND [ARG...] -- SCENARIO...');
  process.exit(2);
}
const [kind, ...target] = argv.slice(0, sep);
const names = argv.slice(sep + 1);
for (const n of names) {
  if (!scenarios[n]) {
    console.error(`tssdk: unknown scenario ${n} (known: ${Object.keys(scenarios).join(', ')})`);
    process.exit(2);
  }
}

// transport returns a new transport to the server, and the server's stderr
// so far (stdio: printed when a scenario fails).
function transport() {
  if (kind === 'http') {
    const [url, token] = target;
    return [new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}), () => ''];
  }
  const [command, ...args] = target;
  const t = new StdioClientTransport({ command, args, stderr: 'pipe' });
  let log = '';
  t.stderr.on('data', (b) => { log += b; });
  return [t, () => log];
}

async function run(name) {
  const sc = scenarios[name];
  const client = new Client({ name: 'mcpgen-tssdk', version: '1' }, {
    capabilities: { elicitation: sc.url ? { form: {}, url: {} } : { form: {} } },
  });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const p = request.params;
    asked.push(p);
    console.log(`tssdk ${name}: asked ${asked.length}: ${JSON.stringify(p.message)}`);
    const answer = sc.answers[asked.length - 1];
    if (!answer) throw new Error(`asked ${asked.length} times, the scenario has ${sc.answers.length} answers`);
    return answer(p);
  });
  // notifications/elicitation/complete: the elicitationIds completed.
  const completed = new Set();
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completed.add(n.params.elicitationId); });
  const [t, serverLog] = transport();
  // The version the server answered initialize with (the client hands it to
  // an HTTP transport; stdio has no such method).
  let version = '?';
  const setVersion = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v) => { version = v; setVersion?.(v); };
  await client.connect(t);
  try {
    // Long enough for a person (here: Chromium) to complete a URL-mode page.
    const res = await client.callTool({ name: sc.tool, arguments: sc.args }, undefined, { timeout: 60000 });
    const text = (res.content ?? []).map((c) => c.text ?? '').join('');
    console.log(`tssdk ${name}: protocol ${version}${t.sessionId ? ', session ' + t.sessionId : ''}: ${text}`);
    if (res.isError || !sc.want.test(text)) throw new Error(`result isError=${res.isError} ${JSON.stringify(text)}, want ${sc.want}`);
    if (asked.length !== sc.answers.length) throw new Error(`asked ${asked.length} questions, want ${sc.answers.length}`);
    if (sc.url) {
      // The page that ended the flow is notified complete with its
      // request's elicitationId.
      const last = asked[asked.length - 1].elicitationId;
      for (let i = 0; i < 100 && !completed.has(last); i++) await new Promise((r) => setTimeout(r, 100));
      console.log(`tssdk ${name}: completed ${[...completed].join(', ')}`);
      if (!completed.has(last)) throw new Error(`notifications/elicitation/complete for ${[...completed]}, not for the last page's ${last}`);
    }
    if (t.sessionId) await t.terminateSession();
  } catch (err) {
    const log = serverLog();
    if (log) console.error(`tssdk ${name}: the server's stderr:\n${log}`);
    throw err;
  } finally {
    await client.close();
  }
}

let failed = 0;
for (const name of names) {
  try {
    await run(name);
  } catch (err) {
    failed++;
    console.error(`tssdk ${name}: FAIL: ${err?.message ?? err}`);
  }
}
if (failed) {
  console.error(`tssdk: FAIL, ${failed} of ${names.length} scenarios`);
  process.exit(1);
}
console.log(`tssdk: ok, ${names.length} scenarios`);
process.exit(0);
