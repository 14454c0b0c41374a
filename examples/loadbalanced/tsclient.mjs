// Drives book_flight with the official TypeScript client
// (@modelcontextprotocol/client 2.4.0) over Streamable HTTP: one accepted,
// one declined and one cancelled call, each on its own connection, in the
// mode given as the first argument:
//
//   legacy  the client's default version negotiation: initialize with
//           2025-11-25, a session (Mcp-Session-Id), and elicitation/create
//           pushed down the tools/call's response stream;
//   pinned  versionNegotiation {mode: {pin: '2026-07-28'}}: stateless
//           requests, input-required results answered by the client's own
//           multi-round-trip loop.
//
// A legacy session is ended with DELETE (terminateSession) once its call is
// done.
//
// Usage: node tsclient.mjs legacy|pinned URL [N]. With N (default 1), N
// calls of each action, ten at a time (one at a time when N is 1). Prints
// one line per call ("tsclient MODE ACTION: protocol …, session ID: text")
// and "tsclient MODE: ok, K calls", or the calls that went wrong and
// "tsclient MODE: FAIL, F of K calls failed", exiting 1.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [mode, url, repeat = '1'] = process.argv.slice(2);
const n = Number(repeat);
if (!['legacy', 'pinned'].includes(mode) || !url || !Number.isInteger(n) || n < 1) {
  console.error('usage: node tsclient.mjs legacy|pinned URL [N]');
  process.exit(2);
}

const want = { accept: 'Booked', decline: 'nothing booked', cancel: 'cancelled' };

async function call(action) {
  const opts = { capabilities: { elicitation: { form: {} } } };
  if (mode === 'pinned') opts.versionNegotiation = { mode: { pin: '2026-07-28' } };
  const client = new Client({ name: `mcpgen-tsclient-${mode}`, version: '1' }, opts);
  let asked = 0;
  client.setRequestHandler('elicitation/create', async (request) => {
    asked++;
    if (action !== 'accept') return { action };
    const props = request.params.requestedSchema?.properties ?? {};
    if (!('date' in props)) throw new Error(`no date field in ${JSON.stringify(request.params)}`);
    return { action: 'accept', content: { date: '2027-03-14', passengers: 2 } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? '?';
  const session = transport.sessionId ?? '';
  try {
    const res = await client.callTool({ name: 'book_flight', arguments: { origin: 'CDG', destination: 'JFK' } });
    const text = (res.content ?? []).map((c) => c.text ?? '').join('');
    if (res.isError || !text.includes(want[action]) || asked !== 1) {
      throw new Error(`${action}: got isError=${res.isError} asked=${asked} ${JSON.stringify(text)}`);
    }
    if (mode === 'legacy' && !session) throw new Error(`${action}: the legacy client has no session id`);
    if (mode === 'pinned' && session) throw new Error(`${action}: the pinned client got a session id ${session}`);
    console.log(`tsclient ${mode} ${action}: protocol ${version}${session ? ', session ' + session : ', no session'}: ${text}`);
    if (session) await transport.terminateSession();
  } finally {
    await client.close();
  }
}

// Each round of three starts one action later than the last, so that behind
// a round robin balancer each action's sessions open on every instance.
const actions = ['accept', 'decline', 'cancel'];
const jobs = [];
for (let i = 0; i < n; i++) for (let j = 0; j < 3; j++) jobs.push(actions[(i + j) % 3]);
let failed = 0;
async function worker() {
  for (let action = jobs.shift(); action; action = jobs.shift()) {
    try {
      await call(action);
    } catch (err) {
      failed++;
      console.error(`tsclient ${mode} ${action}: FAIL: ${err?.stack ?? err}`);
    }
  }
}
const total = jobs.length;
await Promise.all(Array.from({ length: n === 1 ? 1 : 10 }, worker));
if (failed > 0) {
  console.error(`tsclient ${mode}: FAIL, ${failed} of ${total} calls failed`);
  process.exit(1);
}
console.log(`tsclient ${mode}: ok, ${total} calls`);
