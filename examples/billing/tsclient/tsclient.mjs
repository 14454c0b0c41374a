// Pays INV-1 as alice with the official TypeScript client
// (@modelcontextprotocol/client 2.4.0) pinned to MCP 2026-07-28: stateless
// requests, the input-required result answered by the client's own
// multi-round-trip loop, whose elicitation handler picks sav-002 among
// alice's accounts. Then lists alice's charges.
//
// Usage: node tsclient.mjs URL. Prints what happened and "tsclient billing: ok",
// or exits 1 saying what went wrong.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node tsclient.mjs URL');
  process.exit(2);
}

try {
  const client = new Client({ name: 'mcpgen-billing-tsclient', version: '1' }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  });
  let asked = 0;
  client.setRequestHandler('elicitation/create', async (request) => {
    asked++;
    const account = request.params.requestedSchema?.properties?.account;
    const options = (account?.oneOf ?? []).map((o) => o.const);
    console.log(`tsclient billing: asked "${request.params.message}" with accounts ${options.join(', ')}`);
    if (options.join(',') !== 'chk-001,sav-002,crd-003') {
      throw new Error(`unexpected accounts in ${JSON.stringify(request.params)}`);
    }
    return { action: 'accept', content: { account: 'sav-002' } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    authProvider: { token: async () => 'alice-token' },
  });
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? '?';
    const res = await client.callTool({ name: 'pay_invoice', arguments: { invoice: 'INV-1', amount: 120.5 } });
    const text = (res.content ?? []).map((c) => c.text ?? '').join('');
    console.log(`tsclient billing: protocol ${version}: ${text}`);
    if (res.isError || asked !== 1 || !/^Charged 120\.50 to sav-002 for INV-1 \(charge ch_[0-9a-f]{16}\)\.$/.test(text)) {
      throw new Error(`pay_invoice: isError=${res.isError} asked=${asked} ${JSON.stringify(text)}`);
    }
    const list = await client.callTool({ name: 'charges', arguments: {} });
    const charges = list.structuredContent?.charges ?? [];
    console.log(`tsclient billing: charges ${JSON.stringify(charges)}`);
    if (charges.length !== 1 || charges[0].account !== 'sav-002' || charges[0].invoice !== 'INV-1') {
      throw new Error(`charges: ${JSON.stringify(list)}`);
    }
  } finally {
    await client.close();
  }
  console.log('tsclient billing: ok');
} catch (err) {
  console.error(`tsclient billing: FAIL: ${err?.stack ?? err}`);
  process.exit(1);
}
