// The A2A v1.0.1 canonical form (§8.4.1, §5.7, specification/a2a.proto),
// written here from the spec, independently of the Go verifier: REQUIRED
// members kept even when empty, proto3 optional ones kept when present,
// every other member dropped at its default ("", false, 0, [], {});
// Struct values (params) kept as they are; signatures dropped; then RFC 8785.
// Members outside the v1.0 schema are kept as they are (the spec says
// nothing of them); the cards signed this way have none.
// R: REQUIRED, O: optional, P: plain; after the letter, the message or
// '[msg' (repeated), '{msg' (map of messages), '{' (map of strings),
// 'S' (Struct).
const schema = {
  AgentCard: { name: 'R', description: 'R', supportedInterfaces: 'R[AgentInterface', provider: 'PAgentProvider', version: 'R', documentationUrl: 'O', capabilities: 'RAgentCapabilities', securitySchemes: 'P{SecurityScheme', securityRequirements: 'P[SecurityRequirement', defaultInputModes: 'R', defaultOutputModes: 'R', skills: 'R[AgentSkill', iconUrl: 'O' },
  AgentInterface: { url: 'R', protocolBinding: 'R', tenant: 'P', protocolVersion: 'R' },
  AgentProvider: { url: 'R', organization: 'R' },
  AgentCapabilities: { streaming: 'O', pushNotifications: 'O', extensions: 'P[AgentExtension', extendedAgentCard: 'O' },
  AgentExtension: { uri: 'P', description: 'P', required: 'P', params: 'PS' },
  AgentSkill: { id: 'R', name: 'R', description: 'R', tags: 'R', examples: 'P', inputModes: 'P', outputModes: 'P', securityRequirements: 'P[SecurityRequirement' },
  SecurityRequirement: { schemes: 'P{StringList' },
  StringList: { list: 'P' },
  SecurityScheme: { apiKeySecurityScheme: 'PAPIKey', httpAuthSecurityScheme: 'PHTTPAuth', oauth2SecurityScheme: 'POAuth2', openIdConnectSecurityScheme: 'POIDC', mtlsSecurityScheme: 'PMTLS' },
  APIKey: { description: 'P', location: 'R', name: 'R' },
  HTTPAuth: { description: 'P', scheme: 'R', bearerFormat: 'P' },
  OAuth2: { description: 'P', flows: 'RFlows', oauth2MetadataUrl: 'P' },
  OIDC: { description: 'P', openIdConnectUrl: 'R' },
  MTLS: { description: 'P' },
  Flows: { authorizationCode: 'PAuthCode', clientCredentials: 'PClientCreds', deviceCode: 'PDevice', implicit: 'PImplicit', password: 'PPassword' },
  AuthCode: { authorizationUrl: 'R', tokenUrl: 'R', refreshUrl: 'P', scopes: 'R{', pkceRequired: 'P' },
  ClientCreds: { tokenUrl: 'R', refreshUrl: 'P', scopes: 'R{' },
  Device: { deviceAuthorizationUrl: 'R', tokenUrl: 'R', refreshUrl: 'P', scopes: 'R{' },
  Implicit: { authorizationUrl: 'P', refreshUrl: 'P', scopes: 'P{' },
  Password: { tokenUrl: 'P', refreshUrl: 'P', scopes: 'P{' },
};
const isDefault = (v) => v === '' || v === false || v === 0 || (Array.isArray(v) && !v.length) ||
  (v && typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length);
function specProject(msg, obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    const f = schema[msg][k];
    if (!f) { out[k] = v; continue; } // outside the schema: kept as received
    const [presence, type] = [f[0], f.slice(1)];
    let w = v;
    if (type === 'S' || type === '' || type === '{') w = v;
    else if (type[0] === '[') w = v.map((e) => specProject(type.slice(1), e));
    else if (type[0] === '{') w = Object.fromEntries(Object.entries(v).map(([mk, mv]) => [mk, specProject(type.slice(1), mv)]));
    else w = specProject(type, v);
    if (presence === 'P' && isDefault(w)) continue;
    out[k] = w;
  }
  return out;
}
function jcs(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(jcs).join(',') + ']';
  return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + jcs(v[k])).join(',') + '}';
}
export function specCanonical(card) {
  card = { ...card };
  delete card.signatures;
  return jcs(specProject('AgentCard', card));
}
// The example of A2A v1.0.1 §8.4.1, as a check of the rules above.
{
  const got = specCanonical({ name: 'Example Agent', description: '', capabilities: { streaming: false, pushNotifications: false, extensions: [] }, skills: [] });
  const want = '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}';
  if (got !== want) throw new Error(`spec form of the §8.4.1 example: got ${got}`);
}
