import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import { ToolMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';

import { WEB_FETCH_TOOL_NAME, WebFetchError, createWebFetchTool, isWebFetchError } from '../../../src/tools';
import type { WebFetchLookup, WebFetchToolOptions } from '../../../src/tools';
import { fetchWebPage, vetTarget } from '../../../src/tools/web-fetch-tool';
import type { VetTarget } from '../../../src/tools/web-fetch-tool';
import { waitFor } from './helpers';

/** A route answers one request; it may leave the response open (slow and hanging servers). */
type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request received, as `Host path`. */
  requests: string[];
  /** Connections the client has closed (or that were closed otherwise). */
  closedConnections: () => number;
  close: () => Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Starts a server on 127.0.0.1 (any free port), closed after the test. */
async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.headers.host ?? ''} ${req.url ?? ''}`);
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
      return;
    }
    route(req, res);
  });
  let closed = 0;
  server.on('connection', (socket) => socket.once('close', () => closed++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    closedConnections: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(started);
  return started;
}

const html =
  (body: string, headers: http.OutgoingHttpHeaders = {}): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };

const redirect =
  (location: string, status = 302): Route =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

/** Never answers: the request stays open until the client gives up or the server closes. */
const hang: Route = () => undefined;

const ARTICLE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Durable Agents | Example Blog</title></head>
<body>
  <nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li><li><a href="/login">Sign in</a></li></ul></nav>
  <header class="masthead"><div class="logo">Example Blog</div></header>
  <main>
    <article>
      <h1>Durable Agents</h1>
      <p>Temporal workflows make long-running agent loops survive worker crashes. Each model call runs as an
      activity, so a crash mid-run resumes from the last completed step instead of starting over. This matters
      most for research agents whose runs take minutes and fan out into many subagents.</p>
      <h2>How delegation works</h2>
      <p>The lead agent hands self-contained tasks to subagents. Read the <a href="/docs/delegation">delegation guide</a>
      for the full protocol, including how results are summarised and returned to the lead as tool messages.</p>
      <p>Three properties make the design practical in production deployments:</p>
      <ul>
        <li>Every subagent is an activity with its own timeout</li>
        <li>Results are stored durably before the lead sees them</li>
        <li>Cancellation propagates from the lead to every running subagent</li>
      </ul>
      <p>Together they let a run of hours be stopped, inspected and resumed without losing any completed work,
      which is what operators ask for first when agents move from demos into daily use.</p>
    </article>
  </main>
  <footer class="site-footer"><p>Copyright 2024 Example Blog. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
</body>
</html>`;

const BASE_OPTIONS: WebFetchToolOptions = {
  allow_private_networks: true,
  timeout_seconds: 10,
  max_response_bytes: 1_000_000,
  max_redirects: 5,
  max_output_chars: 40_000,
};

async function fetchText(options: Partial<WebFetchToolOptions>, url: string, signal?: AbortSignal): Promise<string> {
  const webFetch = createWebFetchTool({ ...BASE_OPTIONS, ...options });
  const out: unknown = await webFetch.invoke({ url }, signal === undefined ? {} : { signal });
  if (typeof out !== 'string') throw new Error(`web_fetch returned ${typeof out}`);
  return out;
}

/** The rejection of `promise`, failing the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('web_fetch against a local server', () => {
  it('is a structured tool named web_fetch taking a url', () => {
    const webFetch: StructuredToolInterface = createWebFetchTool(BASE_OPTIONS);
    expect(webFetch.name).toBe(WEB_FETCH_TOOL_NAME);
    expect(WEB_FETCH_TOOL_NAME).toBe('web_fetch');
    expect(webFetch.description).toMatch(/Markdown/);
  });

  it('returns the article as Markdown after a title/URL header, without nav and footer boilerplate', async () => {
    const srv = await startServer({ '/blog/durable-agents': html(ARTICLE) });
    const out = await fetchText({}, `${srv.origin}/blog/durable-agents#section`);
    const [header, blank, ...rest] = out.split('\n');
    expect(header).toBe(`Title: Durable Agents | Example Blog | URL: ${srv.origin}/blog/durable-agents`);
    expect(blank).toBe('');
    const markdown = rest.join('\n');
    expect(markdown).toMatch(/^#+ How delegation works$/m);
    expect(markdown).toContain('Temporal workflows make long-running agent loops survive worker crashes.');
    // Relative links come back absolute, in Markdown form.
    expect(markdown).toContain(`[delegation guide](${srv.origin}/docs/delegation)`);
    expect(markdown).toMatch(/^- +Every subagent is an activity with its own timeout$/m);
    expect(markdown).toMatch(/^- +Cancellation propagates from the lead to every running subagent$/m);
    for (const boilerplate of ['About us', 'Sign in', 'Copyright 2024', 'Privacy policy', '<p>', '<article>']) {
      expect(markdown).not.toContain(boilerplate);
    }
    expect(srv.requests).toEqual([`127.0.0.1:${srv.port} /blog/durable-agents`]);
  });

  it('falls back to the whole body when there is no article, and handles fragments and empty pages', async () => {
    const srv = await startServer({
      '/fragment': html('<p>Just a <b>short</b> fragment with a <a href="x/y">link</a>.</p>'),
      '/empty': html(''),
      '/scripts': html('<html><head><title>Only scripts</title></head><body><script>var x = 1;</script></body></html>'),
    });
    const fragment = await fetchText({}, `${srv.origin}/fragment`);
    expect(fragment).toBe(
      `Title: (none) | URL: ${srv.origin}/fragment\n\nJust a **short** fragment with a [link](${srv.origin}/x/y).`,
    );
    expect(await fetchText({}, `${srv.origin}/empty`)).toBe(
      `Title: (none) | URL: ${srv.origin}/empty\n\n(the page has no readable text)`,
    );
    const scripts = await fetchText({}, `${srv.origin}/scripts`);
    expect(scripts).toBe(`Title: Only scripts | URL: ${srv.origin}/scripts\n\n(the page has no readable text)`);
  });

  it('returns text/plain as it is, decodes the declared charset and gzip bodies', async () => {
    const srv = await startServer({
      '/notes.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('line one\n<b>not html</b>\n'),
      '/latin1': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' })
          .end(Buffer.from('<html><head><title>Caf\u00e9</title></head><body><p>cr\u00e8me br\u00fbl\u00e9e</p></body></html>', 'latin1')),
      '/gzip': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync('<html><head><title>Zipped</title></head><body><p>compressed body text</p></body></html>')),
    });
    expect(await fetchText({}, `${srv.origin}/notes.txt`)).toBe(
      `Title: (none) | URL: ${srv.origin}/notes.txt\n\nline one\n<b>not html</b>`,
    );
    expect(await fetchText({}, `${srv.origin}/latin1`)).toBe(`Title: Café | URL: ${srv.origin}/latin1\n\ncrème brûlée`);
    expect(await fetchText({}, `${srv.origin}/gzip`)).toBe(`Title: Zipped | URL: ${srv.origin}/gzip\n\ncompressed body text`);
  });

  it('follows a redirect chain and names the final URL in the header', async () => {
    const srv = await startServer({
      '/old': redirect('/moved', 301),
      '/moved': redirect('/blog/durable-agents?ref=moved', 302),
      '/blog/durable-agents': html(ARTICLE),
    });
    const out = await fetchText({}, `${srv.origin}/old`);
    expect(out.split('\n')[0]).toBe(
      `Title: Durable Agents | Example Blog | URL: ${srv.origin}/blog/durable-agents?ref=moved`,
    );
    expect(out).toContain('How delegation works');
    expect(srv.requests.map((r) => r.split(' ')[1])).toEqual(['/old', '/moved', '/blog/durable-agents?ref=moved']);
  });

  it('gives up after max_redirects redirects', async () => {
    const srv = await startServer({ '/a': redirect('/b'), '/b': redirect('/c'), '/c': redirect('/a') });
    const err = await failure(fetchText({ max_redirects: 2 }, `${srv.origin}/a`));
    expect(err).toBeInstanceOf(WebFetchError);
    expect(err).toMatchObject({ name: 'WebFetchError', code: 'TOO_MANY_REDIRECTS' });
    expect(err.message).toBe(`Too many redirects fetching ${srv.origin}/a: gave up after 2; the last one pointed to /a`);
    expect(srv.requests).toHaveLength(3);
  });

  it('refuses redirects to other schemes', async () => {
    const srv = await startServer({ '/to-file': redirect('file:///etc/passwd') });
    const err = await failure(fetchText({}, `${srv.origin}/to-file`));
    expect(err).toMatchObject({ code: 'INVALID_URL' });
    expect(err.message).toContain('only fetches http:// and https:// URLs');
  });

  it('reports non-2xx statuses with code and reason', async () => {
    const srv = await startServer({
      '/gone': (_req, res) => res.writeHead(410, { 'content-type': 'text/html' }).end('<p>gone</p>'),
    });
    const notFound = await failure(fetchText({}, `${srv.origin}/missing`));
    expect(notFound).toMatchObject({ code: 'HTTP_STATUS', message: `HTTP 404 Not Found for ${srv.origin}/missing` });
    const gone = await failure(fetchText({}, `${srv.origin}/gone`));
    expect(gone.message).toBe(`HTTP 410 Gone for ${srv.origin}/gone`);
  });

  it('reports refused connections and TLS failures', async () => {
    const srv = await startServer({});
    // TLS to a plain HTTP server: the handshake fails.
    const tls = await failure(fetchText({}, `https://127.0.0.1:${srv.port}/`));
    expect(tls).toMatchObject({ name: 'WebFetchError', code: 'CONNECTION_FAILED' });
    expect(tls.message).toMatch(new RegExp(`^Request to https://127\\.0\\.0\\.1:${srv.port}/ failed: `));
    await srv.close();
    const refused = await failure(fetchText({}, `${srv.origin}/`));
    expect(refused).toMatchObject({ code: 'CONNECTION_FAILED', message: `Request to ${srv.origin}/ failed: ECONNREFUSED` });
  });

  it('times out after timeout_seconds when the server is slow', async () => {
    const srv = await startServer({
      '/slow': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>first bytes');
        // The rest never comes in time: the timeout covers reading the body too.
      },
      '/silent': hang,
    });
    for (const path of ['/slow', '/silent']) {
      const started = Date.now();
      const err = await failure(fetchText({ timeout_seconds: 1 }, `${srv.origin}${path}`));
      const elapsed = Date.now() - started;
      expect(err).toMatchObject({ code: 'TIMEOUT', message: `Fetching ${srv.origin}${path} timed out after 1 s` });
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(2500);
    }
  });

  it('refuses bodies larger than max_response_bytes, declared or streamed', async () => {
    const big = `<html><body><p>${'x'.repeat(50_000)}</p></body></html>`;
    let streamedBytes = 0;
    const srv = await startServer({
      '/declared': html(big),
      '/streamed': (_req, res) => {
        // Chunked, no Content-Length: the limit must hold while reading.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = `<p>${'y'.repeat(1000)}</p>`;
        const timer = setInterval(() => {
          if (res.destroyed || streamedBytes > 10_000_000) {
            clearInterval(timer);
            res.end();
            return;
          }
          streamedBytes += chunk.length;
          res.write(chunk);
        }, 1);
      },
    });
    for (const path of ['/declared', '/streamed']) {
      const err = await failure(fetchText({ max_response_bytes: 4096 }, `${srv.origin}${path}`));
      expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
      expect(err.message).toBe(
        `Response from ${srv.origin}${path} is larger than the 4096-byte limit (max_response_bytes); refused`,
      );
    }
    // The client hung up soon after the limit, instead of downloading everything.
    expect(streamedBytes).toBeLessThan(1_000_000);
  });

  it('applies the size limit to the decompressed body', async () => {
    const srv = await startServer({
      '/bomb': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
          .end(gzipSync(`<p>${'z'.repeat(2_000_000)}</p>`)),
    });
    const err = await failure(fetchText({ max_response_bytes: 100_000 }, `${srv.origin}/bomb`));
    expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('refuses non-HTML content types without reading them', async () => {
    const srv = await startServer({
      '/data.json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
      '/logo.png': (_req, res) =>
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
      '/untyped.bin': (_req, res) => {
        res.removeHeader('content-type');
        res.writeHead(200).end(Buffer.from([0x00, 0x01, 0x02, 0xff]));
      },
    });
    const json = await failure(fetchText({}, `${srv.origin}/data.json`));
    expect(json).toMatchObject({ code: 'UNSUPPORTED_CONTENT_TYPE' });
    expect(json.message).toBe(
      `Cannot read ${srv.origin}/data.json: content type application/json is not supported; ` +
        'web_fetch reads HTML pages and plain text only',
    );
    const png = await failure(fetchText({}, `${srv.origin}/logo.png`));
    expect(png.message).toContain('content type image/png is not supported');
    const untyped = await failure(fetchText({}, `${srv.origin}/untyped.bin`));
    expect(untyped.message).toContain('binary content without a content type is not supported');
  });

  it('caps the output at max_output_chars', async () => {
    const paragraphs = Array.from({ length: 200 }, (_, i) => `<p>Paragraph ${i} ${'words '.repeat(30)}</p>`).join('');
    const srv = await startServer({ '/long': html(`<html><head><title>Long</title></head><body><article>${paragraphs}</article></body></html>`) });
    const out = await fetchText({ max_output_chars: 1000 }, `${srv.origin}/long`);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.startsWith(`Title: Long | URL: ${srv.origin}/long\n\nParagraph 0 `)).toBe(true);
    expect(out).toMatch(/\.\.\. \[\d+ chars truncated\] \.\.\./);
    expect(out).toMatch(/Paragraph 199 (words ?)+$/);
  });

  it('stops at once when the call is aborted mid-request, closing the connection', async () => {
    const srv = await startServer({ '/hang': hang });
    const controller = new AbortController();
    const pending = fetchText({}, `${srv.origin}/hang`, controller.signal);
    expect(await waitFor(() => srv.requests.length > 0, 5000)).toBe(true);
    const abortedAt = Date.now();
    controller.abort();
    const err = await failure(pending);
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(isWebFetchError(err)).toBe(false);
    // Not just the tool call giving up: the request itself was torn down.
    expect(await waitFor(() => srv.closedConnections() === 1, 500)).toBe(true);
  });

  it('rejects fetchWebPage with the abort reason, also while the body streams in', async () => {
    const srv = await startServer({
      '/trickle': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><body><p>started');
      },
    });
    const controller = new AbortController();
    const pending = fetchWebPage(`${srv.origin}/trickle`, BASE_OPTIONS, controller.signal);
    expect(await waitFor(() => srv.requests.length > 0, 5000)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    const reason = new Error('user pressed stop');
    const abortedAt = Date.now();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(await waitFor(() => srv.closedConnections() === 1, 500)).toBe(true);
  });

  it('rejects at once when the signal is already aborted, without connecting', async () => {
    const srv = await startServer({ '/page': html(ARTICLE) });
    await expect(fetchText({}, `${srv.origin}/page`, AbortSignal.abort())).rejects.toThrow();
    const reason = new Error('already stopped');
    await expect(fetchWebPage(`${srv.origin}/page`, BASE_OPTIONS, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(srv.requests).toEqual([]);
  });

  it('connects to the address the lookup returned, keeping the host name in the Host header', async () => {
    const srv = await startServer({ '/blog/durable-agents': html(ARTICLE) });
    const looked: string[] = [];
    const lookup: WebFetchLookup = async (hostname) => {
      looked.push(hostname);
      return hostname === 'blog.example' ? [{ address: '127.0.0.1', family: 4 }] : [];
    };
    const out = await fetchText({ lookup }, `http://blog.example:${srv.port}/blog/durable-agents`);
    expect(out.split('\n')[0]).toBe(`Title: Durable Agents | Example Blog | URL: http://blog.example:${srv.port}/blog/durable-agents`);
    expect(looked).toEqual(['blog.example']);
    expect(srv.requests).toEqual([`blog.example:${srv.port} /blog/durable-agents`]);
  });

  it('throws its WebFetchError for the agent runtime to report, also when invoked with a tool call', async () => {
    const srv = await startServer({});
    const webFetch = createWebFetchTool(BASE_OPTIONS);
    const call = webFetch.invoke({ id: 'call_9', name: WEB_FETCH_TOOL_NAME, args: { url: `${srv.origin}/nope` }, type: 'tool_call' });
    await expect(call).rejects.toMatchObject({ name: 'WebFetchError', code: 'HTTP_STATUS' });
  });

  it('returns a ToolMessage when invoked with a tool call', async () => {
    const srv = await startServer({ '/t.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hi') });
    const webFetch = createWebFetchTool(BASE_OPTIONS);
    const msg: unknown = await webFetch.invoke({
      id: 'call_8',
      name: WEB_FETCH_TOOL_NAME,
      args: { url: `${srv.origin}/t.txt` },
      type: 'tool_call',
    });
    expect(msg).toBeInstanceOf(ToolMessage);
    expect((msg as ToolMessage).tool_call_id).toBe('call_8');
    expect((msg as ToolMessage).content).toBe(`Title: (none) | URL: ${srv.origin}/t.txt\n\nhi`);
  });
});

describe('web_fetch address guard (allow_private_networks: false)', () => {
  const PRIVATE = { allow_private_networks: false };

  it('refuses loopback, link-local and private URLs before connecting', async () => {
    const srv = await startServer({ '/': html(ARTICLE) });
    const cases: Array<[string, string]> = [
      [`${srv.origin}/`, '127.0.0.1 is a loopback address'],
      [`http://localhost:${srv.port}/`, 'localhost resolves to'],
      [`http://[::1]:${srv.port}/`, '::1 is a loopback address'],
      [`http://[::ffff:127.0.0.1]:${srv.port}/`, '::ffff:7f00:1 is a loopback address'],
      [`http://0.0.0.0:${srv.port}/`, '0.0.0.0 is an unspecified address'],
      [`http://2130706433:${srv.port}/`, '127.0.0.1 is a loopback address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
      ['http://10.0.0.1/', '10.0.0.1 is a private network address'],
      ['https://192.168.1.1/admin', '192.168.1.1 is a private network address'],
      ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT address'],
    ];
    for (const [url, reason] of cases) {
      const err = await failure(fetchText(PRIVATE, url));
      expect(err).toMatchObject({ name: 'WebFetchError', code: 'BLOCKED_ADDRESS' });
      expect(err.message).toContain(reason);
      expect(err.message).toContain('web_fetch only reaches public internet addresses');
    }
    expect(srv.requests).toEqual([]);
  });

  it('refuses names that resolve to a private address, even among public ones', async () => {
    const srv = await startServer({ '/': html(ARTICLE) });
    const lookup: WebFetchLookup = async (hostname) => {
      const table: Record<string, Array<{ address: string; family: number }>> = {
        'intranet.example': [{ address: '10.1.2.3', family: 4 }],
        'rebind.example': [
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
        'v6.example': [{ address: 'fd00::5', family: 6 }],
      };
      return table[hostname] ?? [];
    };
    const intranet = await failure(fetchText({ ...PRIVATE, lookup }, `http://intranet.example:${srv.port}/`));
    expect(intranet.message).toBe(
      `Refused to fetch http://intranet.example:${srv.port}/: intranet.example resolves to 10.1.2.3, ` +
        'a private network address. web_fetch only reaches public internet addresses.',
    );
    const rebind = await failure(fetchText({ ...PRIVATE, lookup }, `http://rebind.example:${srv.port}/`));
    expect(rebind.message).toContain('rebind.example resolves to 127.0.0.1, a loopback address');
    const v6 = await failure(fetchText({ ...PRIVATE, lookup }, `http://v6.example:${srv.port}/`));
    expect(v6).toMatchObject({ code: 'BLOCKED_ADDRESS' });
    const unknown = await failure(fetchText({ ...PRIVATE, lookup }, `http://nowhere.example:${srv.port}/`));
    expect(unknown).toMatchObject({ code: 'DNS_FAILED', message: 'Could not resolve host nowhere.example (no addresses)' });
    expect(srv.requests).toEqual([]);
  });

  it('reports DNS failures as such', async () => {
    const lookup: WebFetchLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const err = await failure(fetchText({ ...PRIVATE, lookup }, 'https://missing.example/'));
    expect(err).toMatchObject({ code: 'DNS_FAILED', message: 'Could not resolve host missing.example (ENOTFOUND)' });
  });

  it('vets every redirect hop: a public page redirecting to a private address is refused', async () => {
    let hopTarget = '';
    const srv = await startServer({
      '/hop': (_req, res) => res.writeHead(302, { location: hopTarget }).end(),
      '/secret': html('<p>internal</p>'),
    });
    // `public.example` stands for a public site; the test cannot have one, so that hop is vetted as
    // public and pinned to the local server. Every later hop goes through the real check.
    const vet: VetTarget = (url, signal) =>
      url.hostname === 'public.example'
        ? Promise.resolve({ address: '127.0.0.1', family: 4 })
        : vetTarget(url, { allowPrivateNetworks: false, signal });
    const targets = [
      `http://127.0.0.1:${srv.port}/secret`,
      `http://localhost:${srv.port}/secret`,
      `http://[::ffff:127.0.0.1]:${srv.port}/secret`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const target of targets) {
      hopTarget = target;
      srv.requests.length = 0;
      const err = await failure(
        fetchWebPage(`http://public.example:${srv.port}/hop`, { ...BASE_OPTIONS, allow_private_networks: false }, undefined, vet),
      );
      expect(err).toMatchObject({ code: 'BLOCKED_ADDRESS' });
      expect(err.message).toContain('web_fetch only reaches public internet addresses');
      // The first hop reached the server; the private target never did.
      expect(srv.requests).toEqual([`public.example:${srv.port} /hop`]);
    }
  });

  it('refuses non-http schemes, credentials and malformed URLs', async () => {
    const cases: Array<[string, string]> = [
      ['file:///etc/passwd', 'Cannot fetch file:///etc/passwd: web_fetch only fetches http:// and https:// URLs'],
      ['ftp://example.com/x', 'only fetches http:// and https:// URLs'],
      ['javascript:alert(1)', 'only fetches http:// and https:// URLs'],
      ['not a url', 'Not a valid URL: not a url'],
      ['https://user:pw@example.com/', 'URLs with a user name or password are not supported'],
    ];
    for (const [url, message] of cases) {
      const err = await failure(fetchText(PRIVATE, url));
      expect(err).toMatchObject({ code: 'INVALID_URL' });
      expect(err.message).toContain(message);
    }
  });
});

describe('vetTarget', () => {
  const lookup: WebFetchLookup = async (hostname) =>
    hostname === 'public.example'
      ? [
          { address: '2606:4700:4700::1111', family: 6 },
          { address: '93.184.216.34', family: 4 },
        ]
      : [{ address: '192.168.0.10', family: 4 }];

  it('returns the first address of a public name and IP literals as they are', async () => {
    await expect(vetTarget(new URL('https://public.example/a'), { allowPrivateNetworks: false, lookup })).resolves.toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    await expect(vetTarget(new URL('http://8.8.8.8/'), { allowPrivateNetworks: false, lookup })).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    await expect(vetTarget(new URL('http://[2606:4700::1]/'), { allowPrivateNetworks: false, lookup })).resolves.toEqual({
      address: '2606:4700::1',
      family: 6,
    });
  });

  it('lets private addresses through only with allowPrivateNetworks', async () => {
    const url = new URL('http://printer.example/');
    await expect(vetTarget(url, { allowPrivateNetworks: false, lookup })).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(vetTarget(url, { allowPrivateNetworks: true, lookup })).resolves.toEqual({ address: '192.168.0.10', family: 4 });
    await expect(vetTarget(new URL('http://[fe80::1]/'), { allowPrivateNetworks: false, lookup })).rejects.toThrow(
      'fe80::1 is a link-local address',
    );
  });
});
