/**
 * A request body's bytes, at most `limit` of them: past the limit the stream
 * is cancelled (nothing more is read) and `tooLarge()` is thrown, so a body
 * that declares no length or a false one is refused as soon as it grows too
 * large. The JSON endpoints' bodies (json.server.ts) and the P&L import's CSV
 * body (statements/pnl-csv.server.ts) are read with it, each with its own 413.
 */
export async function readBodyBytes(request: Request, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
