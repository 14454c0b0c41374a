// Checks requestedSchemas the way the official TypeScript client
// (@modelcontextprotocol/client 2.4.0, on @modelcontextprotocol/core) checks
// an elicitation/create request before showing the form: its own zod schema
// for form-mode params. It reads [{name, schema}] as JSON on stdin and
// prints [{name, ok, error}]: ok when the params parse AND nothing was
// dropped on the way (zod strips keywords it does not know, so a schema
// that came back smaller held something outside the grammar).
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';

const canon = (v) => {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  }
  return v;
};

let input = '';
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const { name, schema } of JSON.parse(input)) {
  const r = ElicitRequestFormParamsSchema.safeParse({ mode: 'form', message: 'check', requestedSchema: schema });
  if (!r.success) {
    out.push({ name, ok: false, error: r.error.message });
    continue;
  }
  const kept = JSON.stringify(canon(r.data.requestedSchema));
  const sent = JSON.stringify(canon(schema));
  out.push(kept === sent ? { name, ok: true } : { name, ok: false, error: `parsed as ${kept}, sent ${sent}` });
}
process.stdout.write(JSON.stringify(out));
