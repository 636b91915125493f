/**
 * The outside world of the e2e tests, over real sockets: a scripted
 * Ollama-compatible server (test/support) started here in the extension host,
 * and extra parser services a test may stop and start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { promptTask, type PromptTask } from '../../../src/core';
import {
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { e2eConfig } from './config';
import { setSetting, waitFor } from './vscodeHelpers';

export const MODELS = ['qwen3:1.7b', 'qwen3:0.6b', 'qwen3-embedding:0.6b'];
export const VALID_CODE = 'addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)';
/** An error without a proven fix: the parser's fixes cannot repair it, so the LLM retry runs. */
export const INVALID_CODE = 'addParam(password, p)\nsha256Encode(p, h)\naddResult(h)';
/** Every error has a proven fix (a `;`, an invented name): repaired by the parser's fixes into VALID_CODE, no retry. */
export const FIXABLE_CODE = 'addParam(password, p);\ngetSHA256(p, h)\naddResult(h)';
export const FOREIGN_CODE = 'addParam(password, p)\nfor i in range(1, 6):\naddResult(p)';

export const fenced = (code: string) => `Here is the program:\n\`\`\`avap\n${code}\n\`\`\`\nIt hashes the parameter.`;
export const task = (name: PromptTask) => (request: RecordedRequest) => promptTask(systemPrompt(request)) === name;

let ollama: ScriptedOllama | undefined;

/** The scripted Ollama, started once; `avap.ollama.url` points at it. Rules are reset per call. */
export async function scriptedOllama(): Promise<ScriptedOllama> {
  if (!ollama) {
    ollama = await startScriptedOllama({ models: MODELS });
  }
  ollama.reset();
  await setSetting('ollama.url', ollama.url);
  return ollama;
}

/** Scripts the search-query node every code request passes through. */
export function scriptReformulate(server: ScriptedOllama): void {
  server.on({ endpoint: 'chat', when: task('reformulate') }, { content: 'encodeSHA256 addParam password' });
}

export interface OwnParser {
  address: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A parser service of the test's own (so it can be stopped and started again
 * on the same port). Ports come from below the kernel's ephemeral range, so
 * no outgoing connection can be holding the port when the service restarts;
 * a port that is taken is retried.
 */
export async function startOwnParser(port = 0): Promise<OwnParser> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = port || 20_000 + Math.floor(Math.random() * 12_000);
    try {
      return await spawnParser(candidate);
    } catch (err) {
      lastError = err;
      // The same port again: wait until it can be bound (the old service has let go of it), not a fixed pause.
      if (port)
        await waitFor(`port ${port} free`, () => canBind(port).then((free) => (free ? true : undefined)), 10_000);
    }
  }
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** Whether a listener could take `port` on the loopback address right now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function spawnParser(port: number): Promise<OwnParser> {
  const child: ChildProcess = spawn(
    process.execPath,
    [e2eConfig().parserServerJs, '--host', '127.0.0.1', '--port', String(port)],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr?.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('own parser service did not start')), 15_000);
    child.once('exit', (code) => reject(new Error(`own parser service exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (\S+):(\d+)$/.exec(line.trim());
      if (!match) {
        reject(new Error(`unexpected line ${line}`));
        return;
      }
      resolve({
        address: `${match[1]}:${match[2]}`,
        port: Number(match[2]),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) {
              done();
              return;
            }
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
  });
}
