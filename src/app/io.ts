// What a door started as a process (the CLI, the hooks, the MCP server) sees
// of its terminal. An interface, so tests run a door in process with a fake
// terminal over the real vault.
export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Resolves to stdin's text when it is piped, "" when it is a terminal or empty. */
  stdin(): Promise<string>;
}
