/**
 * Models wrap JSON in prose or code fences. Takes the first fenced block if any, else the span from
 * the first `{`/`[` to the matching last `}`/`]`, and parses it. Throws when nothing parses.
 */
export function parseModelJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  try {
    return JSON.parse(body);
  } catch {
    const start = body.search(/[[{]/);
    if (start < 0) throw new Error('the model output contains no JSON');
    const close = body[start] === '{' ? '}' : ']';
    const end = body.lastIndexOf(close);
    if (end <= start) throw new Error('the model output has unbalanced JSON');
    return JSON.parse(body.slice(start, end + 1));
  }
}
