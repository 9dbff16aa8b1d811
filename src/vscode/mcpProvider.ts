// Offers the bundled `baton mcp` server to VS Code's MCP support (Copilot agent
// mode and any other MCP client inside VS Code), so nobody has to edit an
// mcp.json by hand. The provider API arrived after our minimum VS Code, so it
// is feature-detected: on an older build this registers nothing.
import * as path from 'path';
import * as vscode from 'vscode';

export const MCP_PROVIDER_ID = 'baton.mcp';

/** The parts of the newer API used here, typed locally so the extension builds against the minimum `@types/vscode`. */
interface McpApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[] },
  ): vscode.Disposable;
}
type StdioDefinition = new (label: string, command: string, args: string[], env?: Record<string, string | number | null>, version?: string) => unknown;

export interface McpProviderOptions {
  /** The vault the extension uses (the `baton.vault` setting), passed to the server; undefined leaves the server to its own lookup. */
  vault?(): string | undefined;
  /** Fired when the vault setting changes, so VS Code asks for the definition again. */
  onDidChange?: vscode.Event<unknown>;
}

/**
 * The server definition: this VS Code's own runtime started as Node
 * (ELECTRON_RUN_AS_NODE) on the extension's `dist/cli.js mcp`. Using the
 * editor's runtime rather than `node` on PATH means it works on machines with
 * no Node installed, and with the exact runtime the extension was tested on.
 */
export function mcpServerDefinition(
  extensionPath: string,
  vault: string | undefined,
  version: string,
): {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  version: string;
} {
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  if (vault) env.BATON_VAULT = vault;
  return { label: 'Baton', command: process.execPath, args: [path.join(extensionPath, 'dist', 'cli.js'), 'mcp'], env, version };
}

/** Registers the provider when this VS Code has the API; returns whether it did. */
export function registerMcpProvider(context: vscode.ExtensionContext, options: McpProviderOptions = {}): boolean {
  const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') return false;
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(changed);
  if (options.onDidChange) context.subscriptions.push(options.onDidChange(() => changed.fire()));
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? '0.0.0');
  context.subscriptions.push(
    lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const d = mcpServerDefinition(context.extensionPath, options.vault?.(), version);
        return [new Definition(d.label, d.command, d.args, d.env, d.version)];
      },
    }),
  );
  return true;
}
