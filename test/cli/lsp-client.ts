import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/cli.js';

/** An LSP diagnostic, as publishDiagnostics carries it. */
export interface Diagnostic {
  message: string;
  source?: string;
  range: { start: { line: number; character: number } };
}

/** One message of JSON-RPC 2.0. */
interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message: string };
}

/** The settings yaml-language-server asks its client for: the schema store off, so only the file's own `$schema` line counts. */
const SETTINGS = { yaml: { validate: true, completion: true, hover: true, schemaStore: { enable: false }, schemas: {} } };

/** How long one answer of the server may take. */
const ANSWER_MS = 30_000;

/** A client of yaml-language-server speaking LSP over the child's stdio (Content-Length framing written out). */
export class YamlLanguageClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly diagnostics = new Map<string, Diagnostic[][]>();
  private readonly diagnosticWaiters: Array<() => void> = [];
  private stderr = '';

  private constructor() {
    const server = join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
    this.child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** Starts the server and initializes it for the folder `root`. */
  static async start(root: string): Promise<YamlLanguageClient> {
    const client = new YamlLanguageClient();
    const rootUri = pathToFileURL(root).href;
    await client.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'project' }],
      capabilities: { workspace: { configuration: true }, textDocument: { completion: { completionItem: { snippetSupport: false } }, publishDiagnostics: {} } },
    });
    client.notify('initialized', {});
    client.notify('workspace/didChangeConfiguration', { settings: SETTINGS });
    return client;
  }

  /** Opens `file` in the server with `text` as its content. */
  open(file: string, text: string): void {
    this.notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(file).href, languageId: 'yaml', version: 1, text } });
  }

  /** The first non-empty diagnostics the server publishes for `file` that `accept` takes (it re-publishes as schemas load). */
  async diagnosticsOf(file: string, accept: (diagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
    const uri = pathToFileURL(file).href;
    const deadline = Date.now() + ANSWER_MS;
    for (;;) {
      const published = this.diagnostics.get(uri) ?? [];
      const found = published.find((list) => list.length > 0 && accept(list));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}: ${JSON.stringify(published)}\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.diagnosticWaiters.push(resolve);
        setTimeout(resolve, 500);
      });
    }
  }

  /** The labels the server offers at `line`:`character` of `file`. */
  async completionLabels(file: string, line: number, character: number): Promise<string[]> {
    const result = (await this.request('textDocument/completion', { textDocument: { uri: pathToFileURL(file).href }, position: { line, character } })) as
      { items: Array<{ label: string }> } | Array<{ label: string }> | null;
    const items = Array.isArray(result) ? result : (result?.items ?? []);
    return items.map((item) => item.label);
  }

  /** Shuts the server down and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.request('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${ANSWER_MS} ms\n${this.stderr}`)), ANSWER_MS);
      this.pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.send({ id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  /** Splits the stream into messages: a header block ending in a blank line, then Content-Length bytes of JSON. */
  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const message = JSON.parse(this.buffer.subarray(start, start + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(start + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    if (message.method === undefined && message.id !== undefined) {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: Diagnostic[] };
      this.diagnostics.set(uri, [...(this.diagnostics.get(uri) ?? []), diagnostics]);
      for (const wake of this.diagnosticWaiters.splice(0)) wake();
    } else if (message.id !== undefined) {
      // A request of the server's: its settings when it asks for them, an empty answer to the rest.
      const items = (message.params as { items?: Array<{ section?: string }> } | undefined)?.items;
      const result = message.method === 'workspace/configuration' ? (items ?? []).map((item) => sectionOf(item.section)) : null;
      this.send({ id: message.id, result });
    }
  }
}

/** The value of a dotted settings section (`yaml`, `yaml.format`), or null when the settings have none. */
function sectionOf(section: string | undefined): unknown {
  let value: unknown = SETTINGS;
  for (const key of section ? section.split('.') : []) value = (value as Record<string, unknown> | undefined)?.[key];
  return value ?? null;
}
