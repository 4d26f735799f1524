// An A2A v1.0 test peer built on @a2a-js/sdk 1.3.0 (the npm alias
// a2a-js-sdk-13) whose card marks extensions required, for the Go SDK's
// extension interop tests (interop/jspeer_ext_test.go).
//
// It prints the single line "LISTENING <port>" on stdout, then serves
// JSON-RPC at /a2a/jsonrpc (v1.0, and v0.3 through the SDK's compat layer
// for a request whose A2A-Version is 0.3 or absent) and HTTP+JSON at
// /a2a/rest, and its card at the well-known path. Every message is
// answered with an agent message "ok". Everything else (logs) goes to
// stderr; the process exits when stdin closes.
//
// Environment:
//   PORT                 port to listen on (default 0 = any free port)
//   REQUIRED_EXTENSIONS  comma-separated URIs the card marks required

import express from 'express';
import { randomUUID } from 'node:crypto';
import { AGENT_CARD_PATH, Role } from 'a2a-js-sdk-13';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from 'a2a-js-sdk-13/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-js-sdk-13/server/express';

for (const m of ['log', 'info', 'debug']) {
  console[m] = (...args) => console.error(...args);
}

const HOST = '127.0.0.1';
const JSONRPC_PATH = '/a2a/jsonrpc';
const REST_PATH = '/a2a/rest';

const required = (process.env.REQUIRED_EXTENSIONS ?? '').split(',').filter((u) => u !== '');

const agentCard = {
  name: 'Interop Peer (a2a-js 1.3.0, extensions)',
  description: 'requires extensions',
  version: '1.0.0',
  supportedInterfaces: [],
  capabilities: {
    streaming: false,
    pushNotifications: false,
    extendedAgentCard: false,
    extensions: required.map((uri) => ({ uri, description: 'required by the peer', required: true, params: undefined })),
  },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
  signatures: [],
};

class OkExecutor {
  async execute(ctx, bus) {
    bus.publish(AgentEvent.message({
      messageId: randomUUID(), contextId: ctx.contextId, taskId: '', role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text', value: 'ok' }, metadata: undefined, filename: '', mediaType: '' }],
      metadata: undefined, extensions: [], referenceTaskIds: [],
    }));
    bus.finished();
  }

  async cancelTask() {}
}

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new OkExecutor());

const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
app.use(REST_PATH, restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

const port = Number.parseInt(process.env.PORT ?? '0', 10) || 0;
const server = app.listen(port, HOST, () => {
  const base = `http://${HOST}:${server.address().port}`;
  agentCard.supportedInterfaces.push(
    { url: base + JSONRPC_PATH, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    { url: base + REST_PATH, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    { url: base + JSONRPC_PATH, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
  );
  process.stdout.write(`LISTENING ${server.address().port}\n`);
});
server.on('error', (err) => {
  console.error('[ext13] error:', err);
  process.exit(1);
});

function shutdown() {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
  setTimeout(() => process.exit(0), 1000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.on('error', shutdown);
process.stdin.resume();
