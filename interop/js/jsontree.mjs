// JSON as token trees for sign-cards.mjs: each token keeps its source
// text, so cards written back are exactly the bytes meant (number literals
// such as 1.0 or 1e21, string escapes, member order, repeated members), and
// an edit changes one place only.

// parse reads JSON text into a tree that keeps each token's source text:
// {t:'obj', m:[[keyNode, valueNode], ...]}, {t:'arr', v:[...]},
// {t:'str', raw, s}, {t:'num', raw}, {t:'lit', raw}. Duplicate member names
// are kept, in order.
export function parse(text) {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const fail = (why) => { throw new Error(`parse: ${why} at ${i}`); };
  function value() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const m = []; ws();
      if (text[i] === '}') { i++; return { t: 'obj', m }; }
      for (;;) {
        ws(); const k = value(); if (k.t !== 'str') fail('member name');
        ws(); if (text[i++] !== ':') fail('colon');
        m.push([k, value()]); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === '}') return { t: 'obj', m };
        fail('object');
      }
    }
    if (c === '[') {
      i++; const v = []; ws();
      if (text[i] === ']') { i++; return { t: 'arr', v }; }
      for (;;) {
        v.push(value()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === ']') return { t: 'arr', v };
        fail('array');
      }
    }
    if (c === '"') {
      const start = i++;
      while (text[i] !== '"') { if (text[i] === '\\') i++; i++; if (i >= text.length) fail('string'); }
      i++;
      const raw = text.slice(start, i);
      return { t: 'str', raw, s: JSON.parse(raw) };
    }
    const m = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) fail('value');
    i += m[0].length;
    return { t: /^[-\d]/.test(m[0]) ? 'num' : 'lit', raw: m[0] };
  }
  const v = value(); ws();
  if (i !== text.length) fail('trailing text');
  return v;
}

// write renders a tree compact (indent = '') or pretty (two spaces a level).
function write(n, indent = '', level = 0) {
  const nl = indent ? '\n' + indent.repeat(level + 1) : '';
  const end = indent ? '\n' + indent.repeat(level) : '';
  const sep = indent ? ': ' : ':';
  switch (n.t) {
    case 'obj':
      if (!n.m.length) return '{}';
      return '{' + n.m.map(([k, v]) => nl + k.raw + sep + write(v, indent, level + 1)).join(',') + end + '}';
    case 'arr':
      if (!n.v.length) return '[]';
      return '[' + n.v.map((v) => nl + write(v, indent, level + 1)).join(',') + end + ']';
    default:
      return n.raw;
  }
}
export const compact = (n) => write(n);
export const pretty = (n) => write(n, '  ') + '\n';
export const clone = (n) => JSON.parse(JSON.stringify(n));
export const node = (v) => parse(JSON.stringify(v));
export const str = (s) => ({ t: 'str', raw: JSON.stringify(s), s });
// escaped rewrites every string with non-ASCII characters escaped as \uXXXX
// and '/' as '\/': the same JSON value in other bytes.
export function escaped(n) {
  if (n.t === 'obj') return { t: 'obj', m: n.m.map(([k, v]) => [escaped(k), escaped(v)]) };
  if (n.t === 'arr') return { t: 'arr', v: n.v.map(escaped) };
  if (n.t !== 'str') return n;
  const raw = JSON.stringify(n.s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).replace(/\//g, '\\/');
  return { t: 'str', raw, s: n.s };
}
// escapedNames writes every member name wholly as \uXXXX escapes
// ("name" as "\u006e\u0061\u006d\u0065"): the same JSON value.
export function escapedNames(n) {
  const esc = (s) => '"' + [...Array(s.length).keys()].map((i) => '\\u' + s.charCodeAt(i).toString(16).padStart(4, '0')).join('') + '"';
  if (n.t === 'obj') return { t: 'obj', m: n.m.map(([k, v]) => [{ t: 'str', raw: esc(k.s), s: k.s }, escapedNames(v)]) };
  if (n.t === 'arr') return { t: 'arr', v: n.v.map(escapedNames) };
  return n;
}
export function member(obj, name) {
  const e = obj.m.find(([k]) => k.s === name);
  if (!e) throw new Error(`no member ${name}`);
  return e[1];
}
export function at(n, path) {
  for (const p of path) n = typeof p === 'number' ? n.v[p] : member(n, p);
  return n;
}
export function setMember(obj, name, v) {
  const e = obj.m.find(([k]) => k.s === name);
  if (e) e[1] = v; else obj.m.push([str(name), v]);
}
export const toValue = (n) => JSON.parse(compact(n));
