// A correct executeTool, without its export: tests add `module.exports` or `export`.

const TICKET_ID = /^TKT-[0-9]{3}$/;
function executeTool(name, args, context, records) {
  if (name !== 'get_ticket') return { ok: false, code: 'unknown_tool' };
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: false, code: 'invalid_arguments' };
  const keys = Object.keys(args);
  if (keys.length !== 1 || keys[0] !== 'ticket_id') return { ok: false, code: 'invalid_arguments' };
  const id = args.ticket_id;
  if (typeof id !== 'string' || !TICKET_ID.test(id)) return { ok: false, code: 'invalid_arguments' };
  if (context.canReadTickets !== true) return { ok: false, code: 'forbidden' };
  const stored = records.get(`${context.tenant}:${id}`);
  if (!stored) return { ok: false, code: 'not_found' };
  return { ok: true, ticket: { id: stored.id, title: stored.title, status: stored.status } };
}
