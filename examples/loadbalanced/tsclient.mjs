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
// Usage: node tsclient.mjs legacy|pinned URL. Prints one line per call and
// "tsclient MODE: ok" or exits 1 naming the call that went wrong.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [mode, url] = process.argv.slice(2);
if (!['legacy', 'pinned'].includes(mode) || !url) {
  console.error('usage: node tsclient.mjs legacy|pinned URL');
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
  } finally {
    await client.close();
  }
}

try {
  for (const action of ['accept', 'decline', 'cancel']) await call(action);
  console.log(`tsclient ${mode}: ok`);
} catch (err) {
  console.error(`tsclient ${mode}: FAIL: ${err?.stack ?? err}`);
  process.exit(1);
}
