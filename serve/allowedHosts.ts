/**
 * Which `Host` names the local servers (`npm start`, `npm run dev`) answer: a defence against DNS
 * rebinding. A page on attacker.example whose name is re-pointed to 127.0.0.1 talks to the local
 * server as its own origin (the browser sends `Host: attacker.example:4321` and a matching
 * `Origin`), so only requests naming this server as it was started are answered:
 * - localhost, 127.0.0.1 and [::1], with the server's port;
 * - the HOST setting, with the port (unless it is a wildcard such as 0.0.0.0: listening on every
 *   interface names none of them);
 * - the names the operator lists in ALLOWED_HOSTS (comma-separated) to preview from a phone on the
 *   LAN: `name:port` is exactly that, a bare `name` means the server's port.
 * Vite, webpack-dev-server and Jupyter check the same way.
 */

/** Addresses that mean "every interface" when listening: never a name a request may use. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The name a server listening on `host` is reached by ([::1] for ::1), or undefined for a wildcard. */
export function listenName(host: string | undefined): string | undefined {
  if (!host || WILDCARDS.has(host)) return undefined;
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The names every local server answers, besides HOST and ALLOWED_HOSTS. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A host and optional port as it may appear in a Host header: no scheme, path, user or spaces. */
const HOST_SYNTAX = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?$/;

/**
 * `name` or `name:port` in one canonical form (`localhost:4321`, `[::1]:4321`, lower case, the
 * port written plainly; no port = `defaultPort`), or undefined when it is no host name.
 */
export function canonicalHost(text: string, defaultPort: number): string | undefined {
  if (!HOST_SYNTAX.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  // The URL parser also canonicalises IPv6 ([0:0:0:0:0:0:0:1] is [::1]) and drops port 80.
  const port = url.port ? Number(url.port) : /:\d+$/.test(text) ? 80 : defaultPort;
  if (!url.hostname || port < 1 || port > 65535) return undefined;
  return `${url.hostname}:${port}`;
}

/** The ALLOWED_HOSTS setting as a list of names; a malformed entry stops the server from starting. */
export function parseAllowedHosts(setting: string | undefined): string[] {
  const names = (setting ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (canonicalHost(name, 1) === undefined) {
      throw new Error(`ALLOWED_HOSTS: "${name.slice(0, 80)}" is not a host name. List names or name:port, comma-separated, e.g. ALLOWED_HOSTS=192.168.1.20:4321,my-laptop.local`);
    }
  }
  return names;
}

export interface HostCheck {
  /** Undefined when the request may be answered, else the status and a short plain-text reason. */
  refusal(hostHeader: string | undefined): { status: number; reason: string } | undefined;
  /** The canonical names answered, e.g. for the start-up message. */
  readonly names: readonly string[];
}

/** The Host check of a server listening on `port` (and `host`, its HOST setting). */
export function hostCheck(opts: { port: number; host?: string | undefined; allowed?: readonly string[] | undefined }): HostCheck {
  const own = listenName(opts.host);
  const listed = [...LOOPBACK_NAMES, ...(own ? [own] : []), ...(opts.allowed ?? [])];
  const names = new Set<string>();
  for (const name of listed) {
    const canonical = canonicalHost(name, opts.port);
    if (canonical === undefined) throw new Error(`Allowed hosts: "${name.slice(0, 80)}" is not a host name`);
    names.add(canonical);
  }
  return {
    names: [...names],
    refusal(hostHeader) {
      // HTTP/1.1 requires a Host; an HTTP/1.0 request without one names no server at all.
      if (!hostHeader) return { status: 400, reason: 'Bad request: no Host header.' };
      const canonical = canonicalHost(hostHeader, 80);
      if (canonical === undefined) return { status: 400, reason: 'Bad request: malformed Host header.' };
      if (!names.has(canonical)) {
        return { status: 421, reason: 'Misdirected request: this local server answers only localhost, 127.0.0.1, [::1], its HOST and the names in ALLOWED_HOSTS.' };
      }
      return undefined;
    },
  };
}
