// The one version string: `baton --version` and the MCP server's handshake say
// the same, and neither door has to import the other for it.
export const VERSION = '0.1.0';
