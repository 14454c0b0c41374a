// The peer of bench/peer_test.go: book_flight served by the official
// TypeScript server, @modelcontextprotocol/server 2.4.0 (McpServer,
// createMcpHandler: stateless Streamable HTTP, one server instance per
// request, as the SDK serves 2026-07-28), over node:http on a loopback port
// through toNodeHandler (@modelcontextprotocol/node 2.1.2, the newest; there
// is no 2.4.0 of it).
//
// The tool does what mcpgen's generated book_flight does, written the way the
// SDK's documentation shows: its arguments are held to a zod input schema;
// when the date is missing it returns inputRequired(...) with the same
// elicitation/create request (message and requestedSchema) and a
// requestState sealed with AES-256-GCM (node:crypto) over the tool, a digest
// of the arguments, the fields asked and an expiry; on the retry the state is
// opened in the ServerOptions.requestState.verify hook (a refused state is the
// SDK's -32602 "Invalid or expired requestState"), checked to be bound to the
// same tool and arguments, and the answer is validated with zod.
//
// Environment: MCPGEN_PEER_KEY, the AES-256 key (32 bytes, base64), read once
// at startup. It prints its base URL on stdout, serves /mcp and /cpu (this
// process's CPU time in nanoseconds, user plus system), and exits when stdin
// closes. bench/tsserver/install installs the packages; the Go benchmark
// copies this file next to them and runs it.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer, createMcpHandler, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

const TOOL = 'book_flight';
const KEY = 'book_flight'; // the inputRequests key, as mcpgen's
const MESSAGE = 'Which day should the flight leave, and how many people are flying?';
const TTL_MS = 10 * 60 * 1000;

const key = Buffer.from(process.env.MCPGEN_PEER_KEY ?? '', 'base64');
if (key.length !== 32) {
  console.error('tsserver: MCPGEN_PEER_KEY must hold 32 bytes, base64');
  process.exit(2);
}

const windows = ['morning', 'afternoon', 'evening'];
const inputSchema = z.object({
  origin: z.string().describe('IATA code of the departure airport, e.g. CDG'),
  destination: z.string().describe('IATA code of the arrival airport, e.g. JFK'),
  date: z.iso.date().optional().meta({ title: 'Departure date', description: 'The day the flight leaves (YYYY-MM-DD)' }),
  window: z.enum(windows).optional().meta({ title: 'Time of day' }),
  passengers: z.number().int().min(1).max(9).optional().meta({ title: 'Passengers' }),
});
// The form's answer, validated on the retry.
const answerSchema = z.object({
  date: z.iso.date(),
  window: z.enum(windows).optional(),
  passengers: z.number().int().min(1).max(9).default(1),
});
// The same requestedSchema as mcpgen's (wire-ready JSON Schema, passed through).
const requestedSchema = {
  type: 'object',
  properties: {
    date: { type: 'string', format: 'date', title: 'Departure date', description: 'The day the flight leaves (YYYY-MM-DD)' },
    window: {
      type: 'string', title: 'Time of day',
      oneOf: [{ const: 'morning', title: 'Morning' }, { const: 'afternoon', title: 'Afternoon' }, { const: 'evening', title: 'Evening' }],
    },
    passengers: { type: 'integer', minimum: 1, maximum: 9, default: 1, title: 'Passengers' },
  },
  required: ['date'],
};
const asked = ['date', 'window', 'passengers'];

// argsDigest is a SHA-256 over the arguments with their keys sorted.
function argsDigest(args) {
  const sorted = Object.fromEntries(Object.keys(args).sort().filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url');
}

// seal: base64url(nonce(12) | ciphertext | tag(16)).
function seal(payload) {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(JSON.stringify(payload), 'utf8'), c.final()]);
  return Buffer.concat([iv, ct, c.getAuthTag()]).toString('base64url');
}

// open throws unless the state is authentic, well formed and unexpired.
function open(state) {
  const b = Buffer.from(state, 'base64url');
  if (state.length > 16384 || b.length < 12 + 16 + 2) throw new Error('requestState: malformed');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAuthTag(b.subarray(b.length - 16));
  const st = JSON.parse(Buffer.concat([d.update(b.subarray(12, b.length - 16)), d.final()]).toString('utf8'));
  if (typeof st !== 'object' || st === null || typeof st.e !== 'number' || Date.now() > st.e) throw new Error('requestState: expired');
  return st;
}

const text = (t, isError = false) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError } : {}) });
const booked = (n, a) => `Booked ${n} passenger${n === 1 ? '' : 's'} from ${a.origin} to ${a.destination} on ${a.date}.`;

async function bookFlight(args, ctx) {
  if (args.date) return text(booked(args.passengers ?? 1, args));
  const digest = argsDigest(args);
  const st = ctx.mcpReq.requestState(); // opened by the verify hook
  if (st === undefined) {
    return inputRequired({
      inputRequests: { [KEY]: inputRequired.elicit({ message: MESSAGE, requestedSchema }) },
      requestState: seal({ t: TOOL, a: digest, q: asked, e: Date.now() + TTL_MS }),
    });
  }
  if (st.t !== TOOL || st.a !== digest) return text('invalid requestState: not this call', true);
  const r = inputResponse(ctx.mcpReq.inputResponses, KEY);
  if (r.kind !== 'elicit' || r.action !== 'accept') return text(r.action === 'cancel' ? 'cancelled' : 'nothing booked');
  const answer = answerSchema.safeParse(r.content ?? {});
  if (!answer.success) return text('invalid answer: ' + answer.error.issues.map((i) => i.path.join('.') + ': ' + i.message).join('; '), true);
  return text(booked(answer.data.passengers, { ...args, date: answer.data.date }));
}

const options = { requestState: { verify: (state) => open(state) } };
const tool = {
  description: 'Book a flight between two airports; asks the user for the date and details it lacks.',
  inputSchema,
};
const handler = createMcpHandler(() => {
  const s = new McpServer({ name: 'bench-ts', version: '1' }, options);
  s.registerTool(TOOL, tool, bookFlight);
  return s;
}, { legacy: 'reject', onerror: (e) => { if (process.env.MCPGEN_PEER_DEBUG) console.error('tsserver:', e); } });
const mcp = toNodeHandler(handler);

const http = createServer((req, res) => {
  if (req.url === '/cpu') {
    const u = process.cpuUsage();
    res.end(String((u.user + u.system) * 1000));
    return;
  }
  if (req.url === '/mcp' || req.url?.startsWith('/mcp?')) {
    mcp(req, res);
    return;
  }
  res.writeHead(404).end();
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}\n`);
});
process.stdin.on('data', () => {});
process.stdin.on('end', () => { http.close(); handler.close().finally(() => process.exit(0)); });
