// A2A v0.3 JSON-RPC and HTTP+JSON interoperability test peer built on
// @a2a-js/sdk.
//
// The Go client SDK's interop tests start this process, read the single line
// "LISTENING <port>" from its stdout, and then talk JSON-RPC to
// http://127.0.0.1:<port>/a2a/jsonrpc, or v0.3 HTTP+JSON to the interface
// http://127.0.0.1:<port>/a2a/rest (paths /v1/...). Everything else (logs)
// goes to stderr.
//
// The agent is scripted by the text of the first text part of the user
// message; see README.md next to this file for the scenarios. It also serves
// message/stream and tasks/resubscribe (SSE), tasks/pushNotificationConfig/*
// (in-memory store) and agent/getAuthenticatedExtendedCard.
//
// Push scripts ("push-entity", "push-fail", "push-watch") stop at a gate
// until the test opens it with POST /push/release/<taskId> (or every gate,
// present and future, with POST /push/release-all), so that a non-blocking
// send is answered, and a webhook can be set, before the task goes on. Run
// with PUSH_SEND=1 to have the SDK's own DefaultPushNotificationSender POST
// the task to the webhooks configured for it.
//
// Environment:
//   PORT                 port to listen on (default 0 = any free port)
//   EXIT_ON_STDIN_CLOSE  "0" disables exiting when stdin is closed (handy for
//                        running by hand in the background with stdin=/dev/null)
//   PUSH_SEND            "1" makes the SDK's DefaultPushNotificationSender
//                        really POST task updates to configured webhooks
//                        (PUSH_TIMEOUT_MS per POST, failures only logged);
//                        by default a no-op sender is used and nothing is
//                        ever POSTed
//   PUSH_TIMEOUT_MS      the real sender's timeout per POST (default 1000)

import express from 'express';
import { randomUUID as uuidv4 } from 'node:crypto';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBusManager,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

// stdout carries exactly one line ("LISTENING <port>"); route every console
// method that would write to stdout (including the SDK's) to stderr instead.
for (const m of ['log', 'info', 'debug']) {
  console[m] = (...args) => console.error(...args);
}

const HOST = '127.0.0.1';
const JSONRPC_PATH = '/a2a/jsonrpc';
const REST_PATH = '/a2a/rest';
const LEGACY_AGENT_CARD_PATH = '.well-known/agent.json';
const SLOW_DELAY_MS = 400;
const STREAM_SLOW_STEP_MS = 500;
const CANCEL_WAIT_MS = 30_000;
const GATE_WAIT_MS = 30_000;

const ENTITY_DATA = { title: '数控车床-A08-03-06', status: { 设备运行状态: '正常' } };
const ENTITY_TEXT =
  '数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个';
const FAIL_TEXT = '查询失败:码不存在或无法解析';
const ASK_TEXT = '请提供要查询的设备编号';

const now = () => new Date().toISOString();

function firstText(message) {
  const part = (message?.parts || []).find((p) => p && p.kind === 'text');
  return part ? String(part.text) : '';
}

function agentMessage(text, taskId, contextId) {
  const msg = {
    kind: 'message',
    role: 'agent',
    messageId: uuidv4(),
    parts: [{ kind: 'text', text }],
    contextId,
  };
  if (taskId) msg.taskId = taskId;
  return msg;
}

// Gates of the push scripts: a task stops at its gate until the test opens
// it (POST /push/release/<taskId>); a gate may be opened before the task
// reaches it, and releaseAll opens every gate, present and future.
const gates = {
  opened: new Set(), // taskIds whose gate is open
  waiting: new Map(), // taskId -> function that lets the waiting task go on
  all: false,
  release(taskId) {
    this.opened.add(taskId);
    this.waiting.get(taskId)?.();
  },
  releaseAll() {
    this.all = true;
    for (const go of [...this.waiting.values()]) go();
  },
  isOpen(taskId) {
    return this.all || this.opened.has(taskId);
  },
};

class ScriptedExecutor {
  // taskId -> function(reason) that stops the pending work of a running task.
  running = new Map();

  async execute(ctx, bus) {
    const { taskId, contextId, userMessage, task } = ctx;
    const text = firstText(userMessage).trim();

    const publishTask = (state) =>
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state, timestamp: now() },
        history: [userMessage],
      });
    const publishArtifact = (name, parts) =>
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: uuidv4(), name, parts },
      });
    // Streaming variant: fixed artifactId and explicit append/lastChunk.
    const publishChunk = (artifactId, name, parts, append, lastChunk) =>
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId, name, parts },
        append,
        lastChunk,
      });
    const publishStatus = (state, messageText, final = true) => {
      const status = { state, timestamp: now() };
      if (messageText !== undefined) status.message = agentMessage(messageText, taskId, contextId);
      bus.publish({ kind: 'status-update', taskId, contextId, status, final });
    };
    const done = () => bus.finished();

    // Follow-up on a task that is waiting for input ("ask" scenario).
    if (task && task.status?.state === 'input-required') {
      console.error(`[executor] follow-up on task ${taskId}: ${JSON.stringify(text)}`);
      publishArtifact('entity', [{ kind: 'text', text: `设备 ${text} 正常` }]);
      publishStatus('completed');
      done();
      return;
    }

    console.error(`[executor] task ${taskId} context ${contextId} scenario ${JSON.stringify(text)}`);
    switch (text) {
      case 'entity':
        publishTask('submitted');
        publishArtifact('entity', [
          { kind: 'data', data: ENTITY_DATA },
          { kind: 'text', text: ENTITY_TEXT },
        ]);
        publishStatus('completed');
        done();
        return;

      case 'fail':
        publishTask('submitted');
        publishStatus('failed', FAIL_TEXT);
        done();
        return;

      case 'ask':
        publishTask('submitted');
        publishStatus('input-required', ASK_TEXT);
        done();
        return;

      case 'slow': {
        publishTask('working');
        const outcome = await this.#wait(taskId, SLOW_DELAY_MS);
        if (outcome === 'canceled') return; // cancelTask already published the final event
        publishArtifact('result', [{ kind: 'text', text: 'done' }]);
        publishStatus('completed');
        done();
        return;
      }

      case 'cancel': {
        publishTask('working');
        const outcome = await this.#wait(taskId, CANCEL_WAIT_MS);
        if (outcome === 'canceled') return;
        publishStatus('failed', 'timed out waiting for tasks/cancel');
        done();
        return;
      }

      case 'stream':
        publishTask('submitted');
        publishStatus('working', undefined, false);
        publishChunk('art-1', 'story', [{ kind: 'text', text: '第一段' }], false, false);
        publishChunk('art-1', 'story', [{ kind: 'text', text: '第二段' }], true, true);
        publishStatus('completed');
        done();
        return;

      case 'stream-slow': {
        publishTask('submitted');
        publishStatus('working', undefined, false);
        if ((await this.#wait(taskId, STREAM_SLOW_STEP_MS)) === 'canceled') return;
        publishChunk('art-slow', 'result', [{ kind: 'text', text: 'done' }], undefined, true);
        if ((await this.#wait(taskId, STREAM_SLOW_STEP_MS)) === 'canceled') return;
        publishStatus('completed');
        done();
        return;
      }

      case 'stream-fail':
        publishTask('submitted');
        publishStatus('working', undefined, false);
        publishStatus('failed', FAIL_TEXT);
        done();
        return;

      // Push scripts, run with PUSH_SEND=1: the SDK's sender POSTs the whole
      // task after each event. Each stops at its gate (see gates above).
      //   push-entity: submitted, working, gate, artifact entity, completed
      //   push-fail:   submitted, working, gate, failed
      //   push-watch:  submitted, gate, working, artifact entity, completed
      //                (only the submitted task exists before the gate, so a
      //                webhook set then gets every later event)
      case 'push-entity':
      case 'push-fail':
      case 'push-watch': {
        publishTask('submitted');
        if (text !== 'push-watch') publishStatus('working', undefined, false);
        const outcome = await this.#gate(taskId);
        if (outcome === 'canceled') return;
        if (outcome === 'timeout') {
          publishStatus('failed', 'timed out waiting for /push/release');
          done();
          return;
        }
        if (text === 'push-watch') publishStatus('working', undefined, false);
        if (text === 'push-fail') {
          publishStatus('failed', FAIL_TEXT);
        } else {
          publishArtifact('entity', [
            { kind: 'data', data: ENTITY_DATA },
            { kind: 'text', text: ENTITY_TEXT },
          ]);
          publishStatus('completed');
        }
        done();
        return;
      }

      case 'message':
        bus.publish({
          kind: 'message',
          role: 'agent',
          messageId: uuidv4(),
          parts: [{ kind: 'text', text: '你好' }],
          contextId,
        });
        done();
        return;

      default:
        publishTask('submitted');
        publishStatus('failed', 'unknown scenario');
        done();
    }
  }

  // Resolves with 'timeout' after ms, or with 'canceled' if cancelTask stops it first.
  #wait(taskId, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.running.delete(taskId);
        resolve('timeout');
      }, ms);
      this.running.set(taskId, () => {
        clearTimeout(timer);
        this.running.delete(taskId);
        resolve('canceled');
      });
    });
  }

  // Resolves with 'released' once the task's gate is open, with 'canceled'
  // if cancelTask stops it first, or with 'timeout' after GATE_WAIT_MS.
  #gate(taskId) {
    if (gates.isOpen(taskId)) return Promise.resolve('released');
    return new Promise((resolve) => {
      const end = (outcome) => {
        clearTimeout(timer);
        gates.waiting.delete(taskId);
        this.running.delete(taskId);
        resolve(outcome);
      };
      const timer = setTimeout(() => end('timeout'), GATE_WAIT_MS);
      gates.waiting.set(taskId, () => end('released'));
      this.running.set(taskId, () => end('canceled'));
    });
  }

  // Called by DefaultRequestHandler.cancelTask while the task's event bus is
  // still alive; the handler then waits for a final status-update on that bus.
  cancelTask = async (taskId, bus) => {
    const stop = this.running.get(taskId);
    if (!stop) {
      // Nothing of ours is running for this task: end the bus so the handler
      // does not wait forever (it then answers TaskNotCancelable).
      console.error(`[executor] cancel of ${taskId}: not running`);
      bus.finished();
      return;
    }
    stop();
    const task = await taskStore.load(taskId);
    const contextId = task?.contextId;
    console.error(`[executor] cancel of ${taskId}: canceled`);
    bus.publish({
      kind: 'status-update',
      taskId,
      contextId,
      status: { state: 'canceled', timestamp: now() },
      final: true,
    });
    bus.finished();
  };
}

// The card's url gets the real port once the server is listening;
// DefaultRequestHandler serves this very object, so mutating it is enough.
// securitySchemes/security are declarative only: no key is ever checked.
const agentCard = {
  protocolVersion: '0.3.0',
  name: 'Interop Peer (JS)',
  description:
    'Scripted A2A v0.3 agent (@a2a-js/sdk) used to test the Go client SDK: ' +
    'entity, fail, ask, slow, cancel, message, stream, stream-slow, stream-fail, ' +
    'push-entity, push-fail, push-watch.',
  url: `http://${HOST}:0${JSONRPC_PATH}`,
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [{ url: `http://${HOST}:0${JSONRPC_PATH}`, transport: 'JSONRPC' }],
  provider: { organization: 'Interop', url: 'https://example.org' },
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  security: [{ apiKey: [] }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    {
      id: 'lookup',
      name: 'Lookup',
      description: 'Looks up a QR code',
      tags: ['qr'],
      examples: ['这个二维码是什么？'],
    },
  ],
  supportsAuthenticatedExtendedCard: true,
};

// agent/getAuthenticatedExtendedCard. DefaultRequestHandler only returns a
// static extended card to users whose isAuthenticated is true (never the case
// with UserBuilder.noAuthentication), so use the provider-function form, which
// it calls unconditionally. Built per call so it carries the real port.
const extendedCardProvider = async () => ({
  ...agentCard,
  name: 'Interop Peer (JS, extended)',
  skills: [
    ...agentCard.skills,
    { id: 'records', name: 'Records', description: 'Lists records', tags: ['records'] },
  ],
});

// Push notifications: configs live in the SDK's in-memory store. After each
// event DefaultRequestHandler hands the task as stored to the sender without
// waiting for it (fire and forget); DefaultPushNotificationSender POSTs it as
// JSON to every config of the task, one event after the other, with the
// config's token in X-A2A-Notification-Token. By default hand the handler a
// sender that does nothing instead; PUSH_SEND=1 selects the SDK's.
const noopPushSender = {
  async send(task) {
    const n = (await pushStore.load(task.id)).length;
    if (n > 0) console.error(`[push] task ${task.id} ${task.status?.state}: ${n} webhook(s) not called (PUSH_SEND!=1)`);
  },
};
const pushStore = new InMemoryPushNotificationStore();
const pushSender =
  process.env.PUSH_SEND === '1'
    ? new DefaultPushNotificationSender(pushStore, {
        timeout: Number.parseInt(process.env.PUSH_TIMEOUT_MS ?? '1000', 10) || 1000,
      })
    : noopPushSender;

const taskStore = new InMemoryTaskStore();
const requestHandler = new DefaultRequestHandler(
  agentCard,
  taskStore,
  new ScriptedExecutor(),
  new DefaultExecutionEventBusManager(),
  pushStore,
  pushSender,
  extendedCardProvider,
);

const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(`/${LEGACY_AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
// The same agent over A2A v0.3 HTTP+JSON (the v0.3 proto's JSON under /v1/).
app.use(REST_PATH, restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
// The test's side of the push scripts' gates (204, no body).
app.post('/push/release-all', (req, res) => {
  gates.releaseAll();
  res.status(204).end();
});
app.post('/push/release/:taskId', (req, res) => {
  gates.release(req.params.taskId);
  res.status(204).end();
});

const port = Number.parseInt(process.env.PORT ?? '0', 10) || 0;
const server = app.listen(port, HOST, () => {
  const actual = server.address().port;
  agentCard.url = `http://${HOST}:${actual}${JSONRPC_PATH}`;
  agentCard.additionalInterfaces = [{ url: agentCard.url, transport: 'JSONRPC' }];
  console.error(`[server] A2A JSON-RPC at ${agentCard.url}, card at http://${HOST}:${actual}/${AGENT_CARD_PATH} (and /${LEGACY_AGENT_CARD_PATH})`);
  process.stdout.write(`LISTENING ${actual}\n`);
});
server.on('error', (err) => {
  console.error('[server] error:', err);
  process.exit(1);
});

let stopping = false;
function shutdown(why) {
  if (stopping) return;
  stopping = true;
  console.error(`[server] shutting down (${why})`);
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
  // Pending executor timers must not keep the process alive.
  setTimeout(() => process.exit(0), 1000).unref();
}

process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

if (process.env.EXIT_ON_STDIN_CLOSE !== '0') {
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  process.stdin.on('error', () => shutdown('stdin error'));
  process.stdin.resume(); // read and discard, so that EOF is noticed
}
