// Imports alice's contacts with the official TypeScript client
// (@modelcontextprotocol/client 2.4.0), as alice (bearer alice-token). The
// key is asked in URL mode: the client never sees it. Its elicitation
// handler prints the page's URL as "url URL" on stdout; the Go test that
// runs this script (examples/connect/chromium_test.go,
// TestChromiumTSClient) opens that URL in Chromium, signs in, enters the
// key, and answers on stdin.
//
// Usage: node tsclient.mjs URL MODE, where MODE is
//   pinned:  pinned to 2026-07-28: the handler waits for the line "done" on
//            stdin (the user completed the page) and accepts; the client's
//            own retry gets the result;
//   default: the client's default, a 2025-11-25 session: the handler
//            accepts at once ("the link was opened"); the tools/call waits
//            for the page, and notifications/elicitation/complete must
//            arrive with the request's elicitationId.
// Prints "result TEXT" and "tsclient connect: ok", or exits 1 saying what
// went wrong.
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, mode] = process.argv.slice(2);
if (!url || (mode !== 'pinned' && mode !== 'default')) {
  console.error('usage: node tsclient.mjs URL pinned|default');
  process.exit(2);
}

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

try {
  const client = new Client({ name: 'mcpgen-connect-tsclient', version: '1' }, {
    capabilities: { elicitation: { form: {}, url: {} } },
    ...(mode === 'pinned' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  const asked = [];
  let completed;
  const completion = new Promise((resolve) => { completed = resolve; });
  client.setRequestHandler('elicitation/create', async (request) => {
    const p = request.params;
    asked.push(p);
    if (p.mode !== 'url') {
      throw new Error(`expected a URL-mode request: ${JSON.stringify(p)}`);
    }
    console.log(`url ${p.url}`);
    if (mode === 'pinned') {
      const line = await lines.next();
      if (line.done || line.value !== 'done') {
        throw new Error(`expected "done" on stdin, got ${JSON.stringify(line.value)}`);
      }
    }
    return { action: 'accept' };
  });
  client.setNotificationHandler('notifications/elicitation/complete', (n) => completed(n.params.elicitationId));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    authProvider: { token: async () => 'alice-token' },
  });
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? '?';
    console.log(`protocol ${version}`);
    const res = await client.callTool({ name: 'import_contacts', arguments: {} });
    const text = (res.content ?? []).map((c) => c.text ?? '').join('');
    console.log(`result ${text}`);
    if (res.isError || asked.length !== 1) {
      throw new Error(`import_contacts: isError=${res.isError} asked=${asked.length} ${JSON.stringify(text)}`);
    }
    if (mode === 'default') {
      const id = await Promise.race([completion, new Promise((r) => setTimeout(() => r(undefined), 10000))]);
      console.log(`completed ${id}`);
      if (!asked[0].elicitationId || id !== asked[0].elicitationId) {
        throw new Error(`notifications/elicitation/complete: got ${id}, asked ${asked[0].elicitationId}`);
      }
    }
  } finally {
    await client.close();
  }
  console.log('tsclient connect: ok');
  process.exit(0);
} catch (err) {
  console.error(`tsclient connect: FAIL: ${err?.stack ?? err}`);
  process.exit(1);
}
