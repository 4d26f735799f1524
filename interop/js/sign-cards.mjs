// Signs A2A v1.0 agent cards with @a2a-js/sdk 1.3.0's generateAgentCardSignature
// (npm alias a2a-js-sdk-13) and writes cross-implementation test vectors for
// the Go verifier (package cardsig): each card as received bytes, tampered
// variants derived from them, the public key set, and manifest.json. A few
// cards are signed over the spec's canonical form instead, which this
// script computes itself (a2a-js has no signer for it). What each vector is:
// ../../cardsig/testdata/a2ajs/README.md.
//
//   node sign-cards.mjs [outdir]     # default ../../cardsig/testdata/a2ajs
//
// Keys: the Ed25519 key is the public RFC 8037 Appendix A.1 test key, so its
// signatures (deterministic) are the same on every run; every ECDSA and RSA
// key is generated afresh on each run, so those signatures change each time.
// Only public keys are written (jwks.json). Never use any of these keys for
// anything real.
//
// Cards are kept as token trees (jsontree.mjs) so that the bytes written
// are exactly the bytes meant: number literals such as 1.0, 1e-7 or 1e21,
// string escapes and member order survive, and a tampered variant differs
// from its source in one place only.

import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as jose from 'jose';
import { canonicalizeAgentCard, generateAgentCardSignature } from 'a2a-js-sdk-13';
import { at, clone, compact, escaped, escapedNames, member, node, parse, pretty, setMember, str, toValue } from './jsontree.mjs';
import { specCanonical } from './specform.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[2] ?? join(here, '..', '..', 'cardsig', 'testdata', 'a2ajs'));
const sdkVersion = JSON.parse(readFileSync(join(here, 'node_modules', 'a2a-js-sdk-13', 'package.json'), 'utf8')).version;
const joseVersion = JSON.parse(readFileSync(join(here, 'node_modules', 'jose', 'package.json'), 'utf8')).version;

// ---------------------------------------------------------------- cards

// caoliao: a v1.0 card in the style of Caoliao's agents. It holds what
// canonicalisers get wrong: Chinese text, an em dash, U+2028, characters
// encoding/json would escape (<, >, &), a control character, description:"",
// pushNotifications:false, tenant:"", a scope-less securityRequirements entry,
// an extension whose params hold numbers written 1.0, 1e-7, 1E2, -0.0, 1e21
// and keys whose UTF-16 order differs from their code point order (U+FF03
// sorts after U+1F69A by code point, before it by UTF-16 code unit).
const caoliaoText = String.raw`{
  "name": "草料设备查询 — Caoliao Device Lookup",
  "description": "",
  "supportedInterfaces": [
    {"url": "https://agent.caoliao.example/a2a/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    {"url": "https://agent.caoliao.example/a2a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": ""}
  ],
  "provider": {"organization": "草料二维码", "url": "https://caoliao.example"},
  "version": "2.3.0",
  "documentationUrl": "https://caoliao.example/docs/a2a",
  "capabilities": {
    "streaming": true,
    "pushNotifications": false,
    "extensions": [
      {
        "uri": "https://caoliao.example/ext/device-lookup/v1",
        "description": "设备编号查询 — 返回状态与位置",
        "required": true,
        "params": {
          "schemaVersion": 1.0,
          "epsilon": 1e-7,
          "hundred": 1E2,
          "offset": -0.0,
          "maxSerial": 1e21,
          "labels": {"＃": "编号", "🚚": "物流"},
          "regions": ["华东", "华南"],
          "note": "A < B & C > D\tline\u2028sep\u001f",
          "strict": false
        }
      }
    ]
  },
  "securitySchemes": {
    "bearerAuth": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
    "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://auth.caoliao.example/token", "scopes": {"device:read": "读取设备状态"}}}}}
  },
  "securityRequirements": [
    {"schemes": {"bearerAuth": {"list": []}}},
    {"schemes": {"oauth": {"list": ["device:read"]}}}
  ],
  "defaultInputModes": ["text/plain", "application/json"],
  "defaultOutputModes": ["text/plain", "application/json"],
  "skills": [
    {
      "id": "lookup",
      "name": "设备查询",
      "description": "按设备编号查询状态 — 支持批量",
      "tags": ["设备", "查询"],
      "examples": ["查询设备 A-1024 的状态"],
      "inputModes": ["text/plain"]
    }
  ],
  "iconUrl": "https://caoliao.example/icon.png"
}`;

// minimal: only REQUIRED members, capabilities {} and skills [] empty (the
// spec form keeps both, the a2a-js form drops both).
const minimalText = String.raw`{
  "name": "Minimal",
  "description": "最小的卡片",
  "supportedInterfaces": [{"url": "https://min.caoliao.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
  "version": "1",
  "capabilities": {},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "skills": []
}`;

// clean: no empty or default value anywhere and no member outside v1.0, so
// the a2a-js canonical form and the spec's are the same bytes.
const cleanText = String.raw`{
  "name": "Clean",
  "description": "没有空值的卡片",
  "supportedInterfaces": [{"url": "https://clean.caoliao.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
  "version": "1.0.0",
  "capabilities": {"streaming": true},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "skills": [{"id": "echo", "name": "回声", "description": "原样返回 — verbatim", "tags": ["demo"]}]
}`;

// numbers: a card without empty values (the a2a-js and spec forms are the
// same bytes) whose extension params hold numbers that formatters get
// wrong; RFC 8785 writes them as ECMAScript's Number.prototype.toString.
const numbersText = String.raw`{
  "name": "Numbers",
  "description": "数字的规范形式",
  "supportedInterfaces": [{"url": "https://numbers.caoliao.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
  "version": "1.0.0",
  "capabilities": {
    "streaming": true,
    "extensions": [{
      "uri": "https://caoliao.example/ext/numbers/v1",
      "params": {
        "n": [0.1, 4.35, 2e-3, 100e-2, 0.000001, 1e-6, 1e-7, -1.5E-10, 333333333.33333329,
              9007199254740993, 123456789012345678901234567890, 1e+30, 1e20, 1e21,
              1.7976931348623157e308, 5e-324, 0, -0],
        "del": "\u007f",
        "quote": "\"\\\/"
      }
    }]
  },
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "skills": [{"id": "n", "name": "数", "description": "数字", "tags": ["n"]}]
}`;

// dual: a card served for v0.3 and v1.0 clients at once, the v0.3 members
// (url, preferredTransport, protocolVersion, additionalInterfaces,
// supportsAuthenticatedExtendedCard, security) beside the v1.0 ones and the
// v0.3 keys (type, scheme) inside a security scheme object, as a2a-python
// serves it.
const dualText = String.raw`{
  "name": "双版本代理",
  "description": "同时服务 v0.3 与 v1.0 客户端",
  "url": "https://dual.caoliao.example/a2a/v03",
  "preferredTransport": "JSONRPC",
  "protocolVersion": "0.3.0",
  "additionalInterfaces": [{"url": "https://dual.caoliao.example/a2a/v03", "transport": "JSONRPC"}],
  "supportsAuthenticatedExtendedCard": true,
  "supportedInterfaces": [
    {"url": "https://dual.caoliao.example/a2a/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
    {"url": "https://dual.caoliao.example/a2a/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}
  ],
  "version": "1.4.0",
  "capabilities": {"streaming": true, "extendedAgentCard": true},
  "securitySchemes": {"bearerAuth": {"httpAuthSecurityScheme": {"scheme": "Bearer"}, "type": "http", "scheme": "bearer"}},
  "securityRequirements": [{"schemes": {"bearerAuth": {"list": []}}}],
  "security": [{"bearerAuth": []}],
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "skills": [{"id": "lookup", "name": "查询", "description": "查询设备", "tags": ["设备"]}]
}`;

// ---------------------------------------------------------------- keys

const keys = {}; // kid -> {alg, priv, jwk (public)}

async function addKey(kid, alg, priv, publish = true) {
  const pub = createPublicKey(priv);
  keys[kid] = { kid, alg, priv, pub, jwk: { ...(await jose.exportJWK(pub)), kid, alg, use: 'sig' }, publish };
}

const fresh = (alg) => {
  switch (alg) {
    case 'ES256': return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    case 'ES384': return generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    case 'ES512': return generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey;
    case 'RS256': case 'PS256': return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    default: throw new Error(alg);
  }
};
// RFC 8037 Appendix A.1: the published Ed25519 test key (seed d).
const rfc8037Seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const ed25519 = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), rfc8037Seed]),
  format: 'der', type: 'pkcs8',
});

await addKey('ed25519-2026', 'EdDSA', ed25519);
for (const alg of ['ES256', 'ES384', 'ES512', 'RS256', 'PS256']) {
  await addKey(`${alg.toLowerCase()}-2026`, alg, fresh(alg));
}
await addKey('es256-next', 'ES256', fresh('ES256'));          // published ahead of the next rotation
await addKey('es256-2025', 'ES256', fresh('ES256'), false);   // rotated out: not in the key set
await addKey('es256-unlisted', 'ES256', fresh('ES256'), false); // never published
const impostor = fresh('ES256'); // another key that claims the kid es256-2026

// ---------------------------------------------------------------- signing

const b64u = (b) => Buffer.from(b).toString('base64url');
const header = (kid, alg) => ({ alg, kid, typ: 'JOSE' });

// sign returns tree with one more signature from a2a-js's signer.
async function sign(tree, kid, { priv, hdr } = {}) {
  const k = keys[kid];
  const signer = generateAgentCardSignature(priv ?? k.priv, hdr ?? header(kid, k.alg));
  const signed = await signer(toValue(tree));
  const sigs = signed.signatures.map((s) => {
    const o = { protected: s.protected, signature: s.signature };
    if (s.header) o.header = s.header;
    return o;
  });
  const out = clone(tree);
  setMember(out, 'signatures', node(sigs));
  return out;
}

// handSigned builds a signature over the a2a-js canonical form without jose,
// for headers jose refuses to sign (alg none, HS256 keyed with a public
// key, crit naming a parameter jose does not know).
function handSigned(tree, hdr, sigFn) {
  const prot = b64u(JSON.stringify(hdr));
  const input = prot + '.' + b64u(canonicalizeAgentCard(toValue(tree)));
  const out = clone(tree);
  setMember(out, 'signatures', node([{ protected: prot, signature: b64u(sigFn(input)) }]));
  return out;
}

// sign256 is an ES256 signature (R||S, RFC 7518 §3.4) of input by priv.
const sign256 = (input, priv) => cryptoSign('sha256', Buffer.from(input), { key: priv, dsaEncoding: 'ieee-p1363' });

// ---------------------------------------------------------------- output

// The directory's JSON files are all this script's: the last run's go (a
// vector renamed or dropped leaves nothing behind); README.md stays.
mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(join(outDir, f));
const vectors = [];
function emit(file, bytes, v) {
  writeFileSync(join(outDir, file), bytes);
  // a2ajs: what a2a-js's own verifyAgentCardSignature says (verify-cards.mjs).
  const a2ajs = v.expect === 'verified' ? 'verified' : 'rejected';
  vectors.push({ name: file.replace(/\.json$/, ''), card: file, jwks: 'jwks.json', unsigned: [], a2ajs, ...v });
}
// both writes the pretty and the compact bytes of one card.
function both(base, tree, v) {
  emit(`${base}.json`, pretty(tree), { ...v, note: `${v.note} (pretty-printed)` });
  emit(`${base}.min.json`, compact(tree), { ...v, note: `${v.note} (compact)` });
}

const caoliao = parse(caoliaoText);
const jsForm = { expect: 'verified', form: 'a2a-js' };
// What the a2a-js form leaves out of the Caoliao card: description "" and
// the scope-less securityRequirements entry (tenant "" is dropped by the
// spec form too: a plain member at its default is as good as absent).
const caoliaoUnsigned = ['/description', '/securityRequirements/0'];

// Every algorithm on the Caoliao card.
const signedBy = {};
for (const kid of ['es256-2026', 'es384-2026', 'es512-2026', 'ed25519-2026', 'rs256-2026', 'ps256-2026']) {
  const alg = keys[kid].alg;
  signedBy[alg] = await sign(caoliao, kid);
  both(`caoliao-${alg.toLowerCase()}`, signedBy[alg], { ...jsForm, unsigned: caoliaoUnsigned, alg, kid, note: `Caoliao card signed by a2a-js with ${alg}` });
}
emit('caoliao-eddsa.escaped.json', pretty(escaped(signedBy.EdDSA)), {
  ...jsForm, unsigned: caoliaoUnsigned, alg: 'EdDSA', kid: 'ed25519-2026',
  note: 'caoliao-eddsa with every non-ASCII character written as a \\uXXXX escape and / as \\/: same JSON value, other bytes',
});

emit('caoliao-eddsa.escaped-names.json', pretty(escapedNames(signedBy.EdDSA)), {
  ...jsForm, unsigned: caoliaoUnsigned, alg: 'EdDSA', kid: 'ed25519-2026',
  note: 'caoliao-eddsa with every member name written wholly as \\uXXXX escapes ("name" as "\\u006e\\u0061\\u006d\\u0065"): same JSON value',
});

both('minimal-eddsa', await sign(parse(minimalText), 'ed25519-2026'), {
  ...jsForm, unsigned: ['/capabilities', '/skills'], alg: 'EdDSA', kid: 'ed25519-2026',
  note: 'minimal card (capabilities {}, skills []): a2a-js drops both, the spec form keeps both',
});
both('clean-es256', await sign(parse(cleanText), 'es256-2026'), {
  expect: 'verified', form: 'spec', alg: 'ES256', kid: 'es256-2026',
  note: 'card without empty values or non-v1.0 members: the a2a-js and spec canonical forms are the same bytes',
});
both('numbers-eddsa', await sign(parse(numbersText), 'ed25519-2026'), {
  expect: 'verified', form: 'spec', alg: 'EdDSA', kid: 'ed25519-2026',
  note: 'numbers such as 0.1, 333333333.33333329, 9007199254740993, 1e21, 5e-324, -0 in extension params (JCS: 0.1, 333333333.3333333, 9007199254740992, 1e+21, 5e-324, 0), DEL and an escaped / in strings',
});
// A string with a lone surrogate: JSON.parse takes it and a2a-js signs it
// (JSON.stringify writes it as \ud800), but it is not I-JSON, which RFC
// 8785 requires; Go reads it as U+FFFD.
{
  const t = parse(cleanText);
  setMember(t, 'description', { t: 'str', raw: '"半个代理对 \\ud800"', s: '半个代理对 \ud800' });
  emit('lone-surrogate-eddsa.json', compact(await sign(t, 'ed25519-2026')), {
    expect: 'invalid', a2ajs: 'verified', form: '', alg: 'EdDSA', kid: 'ed25519-2026',
    note: 'clean card whose description ends in a lone surrogate (\\ud800), signed by a2a-js: not I-JSON',
  });
}
both('dual-es256', await sign(parse(dualText), 'es256-2026'), {
  ...jsForm, alg: 'ES256', kid: 'es256-2026',
  unsigned: ['/url', '/preferredTransport', '/protocolVersion', '/additionalInterfaces', '/supportsAuthenticatedExtendedCard', '/security', '/securitySchemes/bearerAuth/type', '/securitySchemes/bearerAuth/scheme', '/securityRequirements'],
  note: 'dual v0.3/v1.0 card: a2a-js signs only the v1.0 members; the v0.3 ones are unsigned, and so is the only security requirement (scope-less)',
});

// Rotation: a signature by a key no longer in the key set, then one by the current key.
const rotated = await sign(await sign(caoliao, 'es256-2025'), 'es256-next');
both('rotation-es256', rotated, {
  ...jsForm, unsigned: caoliaoUnsigned, alg: 'ES256', kid: 'es256-next',
  note: 'two signatures: es256-2025 (rotated out, not in jwks.json) then es256-next (in the key set)',
});

// ------------------------------------------------ spec form (not a2a-js)

// specSign signs the spec form with jose directly (a2a-js cannot).
async function specSign(tree, kid) {
  const k = keys[kid];
  const jws = await new jose.FlattenedSign(new TextEncoder().encode(specCanonical(toValue(tree))))
    .setProtectedHeader(header(kid, k.alg)).sign(k.priv);
  const out = clone(tree);
  setMember(out, 'signatures', node([{ protected: jws.protected, signature: jws.signature }]));
  return out;
}
const specForm = { expect: 'verified', form: 'spec', a2ajs: 'rejected' };
both('spec-caoliao-eddsa', await specSign(caoliao, 'ed25519-2026'), {
  ...specForm, alg: 'EdDSA', kid: 'ed25519-2026',
  note: 'Caoliao card signed over the spec canonical form written in this script (jose, not a2a-js): description:"" and {"bearerAuth":{}} are signed; a2a-js refuses it',
});
both('spec-minimal-es256', await specSign(parse(minimalText), 'es256-2026'), {
  ...specForm, alg: 'ES256', kid: 'es256-2026',
  note: 'minimal card signed over the spec form (capabilities {} and skills [] kept): a2a-js refuses it',
});
{
  const t = await specSign(caoliao, 'ed25519-2026');
  member(t, 'securityRequirements').v.shift();
  emit('tamper-spec-scopeless-requirement-removed.json', compact(t), {
    alg: 'EdDSA', kid: 'ed25519-2026', form: '', expect: 'invalid',
    note: 'spec-caoliao-eddsa with the scope-less securityRequirements entry removed: the spec form signs it, so this fails (where the a2a-js form does not notice)',
  });
}

// ------------------------------------------------ tampered (one change each)

const base = signedBy.ES256; // compact bytes of this are caoliao-es256.min.json
const es = { alg: 'ES256', kid: 'es256-2026' };
function tamper(name, mutate, v) {
  const t = clone(base);
  mutate(t);
  emit(`tamper-${name}.json`, compact(t), { ...es, form: '', ...v });
}
const sig0 = (t) => at(t, ['signatures', 0]);
function reheader(t, edit) {
  const s = sig0(t);
  const hdr = JSON.parse(Buffer.from(member(s, 'protected').s, 'base64url').toString());
  setMember(s, 'protected', str(b64u(JSON.stringify(edit(hdr)))));
}

tamper('name-changed', (t) => setMember(t, 'name', str('草料设备查询 — Caoliao Device Lookup!')),
  { expect: 'invalid', note: 'name: one character appended' });
tamper('url-changed', (t) => setMember(at(t, ['supportedInterfaces', 0]), 'url', str('https://agent.caoliao.example.evil/a2a/v1')),
  { expect: 'invalid', note: 'supportedInterfaces[0].url changed' });
tamper('param-changed', (t) => setMember(at(t, ['capabilities', 'extensions', 0, 'params']), 'epsilon', { t: 'num', raw: '1e-6' }),
  { expect: 'invalid', note: 'extension params.epsilon 1e-7 -> 1e-6' });
tamper('added-known-member', (t) => setMember(member(t, 'capabilities'), 'extendedAgentCard', { t: 'lit', raw: 'true' }),
  { expect: 'invalid', note: 'capabilities.extendedAgentCard:true added (a v1.0 member: a2a-js signs it)' });
tamper('added-unknown-member', (t) => setMember(t, 'x-caoliao-tier', str('gold')),
  { ...jsForm, unsigned: ['/x-caoliao-tier', ...caoliaoUnsigned], note: 'top-level x-caoliao-tier added: outside v1.0, so the a2a-js form never signs it; it still verifies, with that member reported unsigned' });
tamper('added-nested-unknown-member', (t) => setMember(at(t, ['supportedInterfaces', 0]), 'x-route', str('https://agent.caoliao.example.evil/a2a')),
  { ...jsForm, unsigned: ['/supportedInterfaces/0/x-route', ...caoliaoUnsigned], note: 'supportedInterfaces[0].x-route added: outside v1.0, unsigned in the a2a-js form (the spec form would keep it: the signature no longer verifies there)' });
tamper('added-unknown-member-escaped-pointer', (t) => setMember(t, 'x~tier/gold', { t: 'lit', raw: 'true' }),
  { ...jsForm, unsigned: ['/x~0tier~1gold', ...caoliaoUnsigned], note: 'top-level "x~tier/gold" added: unsigned in the a2a-js form, reported as the JSON pointer /x~0tier~1gold (RFC 6901 escapes)' });
tamper('streaming-as-number', (t) => setMember(member(t, 'capabilities'), 'streaming', { t: 'num', raw: '1' }),
  { expect: 'invalid', a2ajs: 'verified', note: 'capabilities.streaming true -> 1 (not a boolean): a2a-js decodes it with Boolean(1) and still verifies' });
tamper('interfaces-reordered', (t) => { const a = member(t, 'supportedInterfaces'); a.v.reverse(); },
  { expect: 'invalid', note: 'supportedInterfaces elements swapped (array order is signed)' });
tamper('members-reordered', (t) => {
  t.m.reverse();
  member(t, 'capabilities').m.reverse();
  at(t, ['capabilities', 'extensions', 0, 'params']).m.reverse();
}, { ...jsForm, unsigned: caoliaoUnsigned, note: 'object members reordered (top level, capabilities, params): JCS sorts them, still verifies' });
tamper('scopeless-requirement-removed', (t) => { member(t, 'securityRequirements').v.shift(); },
  { ...jsForm, unsigned: ['/description'], note: 'the scope-less securityRequirements entry {"schemes":{"bearerAuth":{"list":[]}}} removed: the a2a-js form drops it anyway (cleanEmpty), so the signature still verifies in that form though what the agent accepts changed' });
tamper('header-alg-swapped', (t) => reheader(t, (h) => ({ ...h, alg: 'ES384' })),
  { expect: 'invalid', note: 'protected header alg ES256 -> ES384 (same kid, a P-256 key)' });
tamper('header-kid-swapped', (t) => reheader(t, (h) => ({ ...h, kid: 'es256-next' })),
  { expect: 'invalid', kid: 'es256-next', note: 'protected header kid es256-2026 -> es256-next (another ES256 key in the set)' });
tamper('header-byte-flipped', (t) => reheader(t, (h) => ({ ...h, typ: 'JOSF' })),
  { expect: 'invalid', note: 'protected header typ "JOSE" -> "JOSF" (one byte)' });
tamper('signature-byte-flipped', (t) => {
  const s = sig0(t); const b = Buffer.from(member(s, 'signature').s, 'base64url'); b[5] ^= 1;
  setMember(s, 'signature', str(b64u(b)));
}, { expect: 'invalid', note: 'one bit of the signature flipped' });
// Vectors signed anew rather than edited from base.
{
  const t = await sign(caoliao, 'es256-2026', { priv: impostor });
  emit('tamper-other-key-same-kid.json', compact(t), { ...es, form: '', expect: 'invalid', note: 'signed by another P-256 key that claims kid es256-2026' });
  const u = await sign(caoliao, 'es256-unlisted');
  emit('tamper-unknown-kid.json', compact(u), { alg: 'ES256', kid: 'es256-unlisted', form: '', expect: 'unverifiable', note: 'signed by a key whose kid es256-unlisted is not in the key set' });
  const n = handSigned(caoliao, { alg: 'none', kid: 'es256-2026', typ: 'JOSE' }, () => Buffer.alloc(0));
  emit('tamper-alg-none.json', compact(n), { alg: 'none', kid: 'es256-2026', form: '', expect: 'invalid', note: 'alg none (forbidden), empty signature, kid of a trusted key' });
  const secret = keys['rs256-2026'].pub.export({ type: 'spki', format: 'pem' });
  const h = handSigned(caoliao, { alg: 'HS256', kid: 'rs256-2026', typ: 'JOSE' }, (input) => createHmac('sha256', secret).update(input).digest());
  emit('tamper-alg-hs256.json', compact(h), { alg: 'HS256', kid: 'rs256-2026', form: '', expect: 'invalid', note: 'HS256 (forbidden: an HMAC) with the PEM of the public key rs256-2026 as HMAC secret (key confusion)' });
  const rs = clone(signedBy.RS256);
  const s = at(rs, ['signatures', 0]);
  const hdr = JSON.parse(Buffer.from(member(s, 'protected').s, 'base64url').toString());
  setMember(s, 'protected', str(b64u(JSON.stringify({ ...hdr, alg: 'PS256' }))));
  emit('tamper-header-rs256-as-ps256.json', compact(rs), { alg: 'PS256', kid: 'rs256-2026', form: '', expect: 'invalid', note: 'RS256 signature with its protected header alg changed to PS256 (same RSA key)' });
  // Protected headers a2a-js's signer takes as given.
  const noTyp = await sign(caoliao, 'es256-2026', { hdr: { alg: 'ES256', kid: 'es256-2026' } });
  emit('header-without-typ.json', compact(noTyp), { ...jsForm, ...es, unsigned: caoliaoUnsigned, warn: true, a2ajs: 'rejected', note: 'protected header without typ (§8.4.2: SHOULD be "JOSE"): a good signature, verified with a warning; a2a-js refuses a header without typ' });
  const noKid = await sign(caoliao, 'es256-2026', { hdr: { alg: 'ES256', typ: 'JOSE' } });
  emit('tamper-header-without-kid.json', compact(noKid), { ...es, kid: '', form: '', expect: 'invalid', note: 'protected header without kid (§8.4.2: MUST contain alg and kid), signed by es256-2026' });
  const crit = handSigned(caoliao, { alg: 'ES256', kid: 'es256-2026', typ: 'JOSE', crit: ['x-caoliao-policy'], 'x-caoliao-policy': 'strict' },
    (input) => sign256(input, keys['es256-2026'].priv));
  emit('tamper-header-crit.json', compact(crit), { ...es, form: '', expect: 'invalid', note: 'a good ES256 signature whose protected header has crit naming a parameter no verifier understands (RFC 7515 §4.1.11: must be refused)' });
  const jku = await sign(caoliao, 'es256-unlisted', { hdr: { ...header('es256-unlisted', 'ES256'), jku: 'https://keys.caoliao.example.invalid/jwks.json' } });
  emit('tamper-jku-foreign.json', compact(jku), { alg: 'ES256', kid: 'es256-unlisted', form: '', expect: 'unverifiable', note: 'signed by a key the set lacks, its protected header naming a jku on another host: a verifier not told to follow jku there must not fetch it' });
  // Two OAuth flows in one OAuthFlows (a oneof): a2a-js's decoder keeps the
  // first in its own order (authorizationCode before clientCredentials)
  // and signs only that one, so the other can be changed at will.
  const two = clone(caoliao);
  setMember(at(two, ['securitySchemes', 'oauth', 'oauth2SecurityScheme', 'flows']), 'authorizationCode',
    node({ authorizationUrl: 'https://auth.caoliao.example/authorize', tokenUrl: 'https://auth.caoliao.example/token', scopes: { 'device:read': '读取设备状态' } }));
  const twoSigned = await sign(two, 'es256-2026');
  setMember(at(twoSigned, ['securitySchemes', 'oauth', 'oauth2SecurityScheme', 'flows', 'clientCredentials']), 'tokenUrl', str('https://auth.caoliao.example.evil/token'));
  emit('tamper-second-oauth-flow-changed.json', compact(twoSigned), {
    ...jsForm, ...es, unsigned: ['/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials', ...caoliaoUnsigned],
    note: 'the Caoliao card with a second OAuth flow (authorizationCode beside clientCredentials in one oneof), signed, then clientCredentials.tokenUrl changed: a2a-js signs only the first flow of its order, so this verifies in its form with clientCredentials unsigned',
  });
  emit('absent.json', compact(caoliao), { alg: '', kid: '', form: '', expect: 'absent', note: 'the Caoliao card unsigned: no signatures member' });
  const e = clone(caoliao); setMember(e, 'signatures', node([]));
  const nul = clone(caoliao); setMember(nul, 'signatures', { t: 'lit', raw: 'null' });
  emit('absent-null.json', compact(nul), { alg: '', kid: '', form: '', expect: 'absent', note: 'the Caoliao card with "signatures":null' });
  emit('absent-empty-list.json', compact(e), { alg: '', kid: '', form: '', expect: 'absent', note: 'the Caoliao card with "signatures":[]' });
  // Duplicate member: the first name is a forgery, the last the signed one.
  // JSON.parse keeps the last, so a2a-js verifies it; I-JSON (RFC 7493, which
  // RFC 8785 requires) forbids duplicate names.
  const d = clone(base);
  d.m.unshift([str('name'), str('Evil Agent')]);
  emit('tamper-duplicate-name.json', compact(d), { ...es, form: '', expect: 'invalid', a2ajs: 'verified', note: 'a second "name" member ("Evil Agent") before the signed one: duplicate member names are not I-JSON' });
}

writeFileSync(join(outDir, 'jwks.json'), JSON.stringify({ keys: Object.values(keys).filter((k) => k.publish).map((k) => k.jwk) }, null, 2) + '\n');
writeFileSync(join(outDir, 'manifest.json'), JSON.stringify({
  generator: `a2a-js ${sdkVersion} generateAgentCardSignature, jose ${joseVersion}`,
  keys: 'EdDSA: RFC 8037 A.1 test key (deterministic signatures); ECDSA and RSA: fresh keys each run',
  vectors,
}, null, 2) + '\n');
process.stderr.write(`wrote ${vectors.length} vectors to ${outDir}\n`);
