import type { PushedRow } from './push.repo'

const q = JSON.stringify

/**
 * A stored call log as one NDJSON line the server's import reads back into the same row: the API's
 * fields, the level as it was first spelled (`WARN` stays `WARN`, normalised again by the server and
 * kept as sent, as here), `details` as its stored JSON text. That text holds no line break but as
 * whitespace between tokens, which is made a space so the record stays on its line.
 */
export function pushedLine(r: PushedRow): string {
  const details = /[\r\n]/.test(r.details) ? r.details.replace(/[\r\n]/g, ' ') : r.details
  return (
    `{"id":${q(r.id)},"tenant_id":${q(r.tenant_id)},"log_type":${q(r.log_type)},"log_level":${q(r.log_level_original ?? r.log_level)},` +
    `"message":${q(r.message)},"timestamp":${q(r.timestamp)},"agent_id":${q(r.agent_id)},"session_id":${q(r.session_id)},` +
    `"call_id":${q(r.call_id)},"details":${details},"user_id":${q(r.user_id)},"trace_id":${q(r.trace_id)},"request_id":${q(r.request_id)}}\n`
  )
}
