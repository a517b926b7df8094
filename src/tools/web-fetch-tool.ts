import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { type Readable, addAbortSignal, pipeline } from 'node:stream';
import * as zlib from 'node:zlib';

import { tool } from '@langchain/core/tools';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { z } from 'zod';

import type { WebFetchConfig } from '../config/schema';
import { WebFetchError } from './errors';
import { classifyAddress, describeAddressClass } from './network-guard';
import { capHeadTail } from './output-cap';

/** Name the model calls the tool by. */
export const WEB_FETCH_TOOL_NAME = 'web_fetch';

/** Resolves a host name to all its addresses, like `dns.lookup(host, { all: true })`. */
export type WebFetchLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Settings of the `web_fetch` tool: the `web_fetch` block of config.yaml. */
export interface WebFetchToolOptions extends WebFetchConfig {
  /** DNS resolution; `node:dns` lookup by default. Tests map made-up names to local addresses. */
  lookup?: WebFetchLookup;
}

/** The address a URL's host was vetted at: the connection goes there and nowhere else. */
export interface VettedTarget {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Checks one hop's URL before it is requested; {@link vetTarget} unless a test replaces it. */
export type VetTarget = (url: URL, signal: AbortSignal) => Promise<VettedTarget>;

/** A successful final response, body read and decoded. */
export interface FetchedPage {
  /** After redirects. */
  readonly url: URL;
  readonly kind: 'html' | 'text';
  readonly text: string;
}

const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  // Some sites refuse clients without a browser-like User-Agent; say who we are anyway.
  'user-agent': 'Mozilla/5.0 (compatible; deerflow-web-fetch/1.0)',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
  'accept-encoding': 'gzip, deflate, br',
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
// Returned as they are: already readable by the model.
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

const urlField = z
  .string()
  .min(1)
  .describe('The http:// or https:// URL of the page to fetch, e.g. https://example.com/article.');

/**
 * Creates the `web_fetch` tool: one HTTP(S) GET of a public web page, returned as Markdown (main
 * content only, via Readability) after a `Title: ... | URL: ...` header line naming the final URL.
 * `text/plain` and Markdown pages come back as they are; other content types are refused.
 */
const webFetchSchema = z.object({ url: urlField });

export function createWebFetchTool(options: WebFetchToolOptions): StructuredToolInterface {
  return tool(
    async ({ url }, config): Promise<string> => {
      const page = await fetchWebPage(url, options, config.signal);
      return renderPage(page, options.max_output_chars);
    },
    {
      name: WEB_FETCH_TOOL_NAME,
      description:
        'Fetch one web page by URL (HTTP GET) and return its main content as Markdown, after a header line ' +
        'with the page title and the final URL (redirects are followed). Use it to read a page whose URL you ' +
        'know, e.g. from search results. HTML and plain text only: JSON, PDFs and images are refused. ' +
        (options.allow_private_networks ? '' : 'Only public internet addresses are reachable. ') +
        `Stops after ${options.timeout_seconds} s; long pages are truncated in the middle.`,
      schema: webFetchSchema,
    },
  );
}

/**
 * Fetches `rawUrl` following redirects, every hop vetted by `vet` (by default {@link vetTarget}
 * with the configured address policy) and connected to the vetted address. The whole call is
 * bounded by `timeout_seconds`; aborting `signal` rejects at once with the signal's reason.
 */
export async function fetchWebPage(
  rawUrl: string,
  options: WebFetchToolOptions,
  signal?: AbortSignal,
  vet?: VetTarget,
): Promise<FetchedPage> {
  signal?.throwIfAborted();
  const lookup = options.lookup ?? defaultLookup;
  const vetHop: VetTarget =
    vet ?? ((url, s) => vetTarget(url, { allowPrivateNetworks: options.allow_private_networks, lookup, signal: s }));
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new WebFetchError('TIMEOUT', `Fetching ${rawUrl} timed out after ${options.timeout_seconds} s`)),
    options.timeout_seconds * 1000,
  );
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await followRedirects(parseHttpUrl(rawUrl), options, controller.signal, vetHop);
  } catch (err) {
    // Whatever the abort broke (socket, stream, lookup) failed because of it: report the reason.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function followRedirects(
  start: URL,
  options: WebFetchToolOptions,
  signal: AbortSignal,
  vet: VetTarget,
): Promise<FetchedPage> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const target = await vet(url, signal);
    const res = await sendRequest(url, target, signal);
    try {
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        const location = res.headers.location;
        if (location === undefined || location === '') {
          throw new WebFetchError('BAD_RESPONSE', `HTTP ${status} redirect without a Location header from ${url.href}`);
        }
        if (redirects >= options.max_redirects) {
          throw new WebFetchError(
            'TOO_MANY_REDIRECTS',
            `Too many redirects fetching ${start.href}: gave up after ${options.max_redirects}; ` +
              `the last one pointed to ${location}`,
          );
        }
        url = parseHttpUrl(location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        const text = res.statusMessage || http.STATUS_CODES[status] || 'Unknown Status';
        throw new WebFetchError('HTTP_STATUS', `HTTP ${status} ${text} for ${url.href}`);
      }
      const { mime, charset } = parseContentType(res.headers['content-type']);
      let kind: FetchedPage['kind'] | 'sniff';
      if (mime === '') kind = 'sniff';
      else if (HTML_TYPES.has(mime)) kind = 'html';
      else if (TEXT_TYPES.has(mime)) kind = 'text';
      else throw unsupportedType(`content type ${mime}`, url);
      const body = await readBody(res, url, options.max_response_bytes, signal);
      if (kind === 'sniff') kind = sniffKind(body, url);
      return { url, kind, text: decodeText(body, charset, kind) };
    } finally {
      // Redirects and refused responses are never read: drop the connection rather than drain it.
      res.destroy();
    }
  }
}

/**
 * The hop check: refuses URLs whose host is, or resolves to, a non-public address (any of its
 * addresses, so a name mixing public and private ones is refused too) unless
 * `allowPrivateNetworks`; returns the address to connect to.
 */
export async function vetTarget(
  url: URL,
  options: { allowPrivateNetworks: boolean; lookup?: WebFetchLookup; signal?: AbortSignal },
): Promise<VettedTarget> {
  const host = bareHostname(url);
  const literal = isIP(host);
  let addresses: readonly LookupAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await abortable((options.lookup ?? defaultLookup)(host), options.signal);
    } catch (err) {
      if (options.signal?.aborted === true) throw err;
      const code = (err as NodeJS.ErrnoException | undefined)?.code;
      throw new WebFetchError('DNS_FAILED', `Could not resolve host ${host}${code === undefined ? '' : ` (${code})`}`, {
        cause: err,
      });
    }
  }
  const first = addresses[0];
  if (first === undefined) throw new WebFetchError('DNS_FAILED', `Could not resolve host ${host} (no addresses)`);
  if (!options.allowPrivateNetworks) {
    for (const { address } of addresses) {
      const cls = classifyAddress(address);
      if (cls === 'public') continue;
      const where = literal !== 0 ? `${host} is` : `${host} resolves to ${address},`;
      throw new WebFetchError(
        'BLOCKED_ADDRESS',
        `Refused to fetch ${url.href}: ${where} ${describeAddressClass(cls)}. ` +
          'web_fetch only reaches public internet addresses.',
      );
    }
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

const defaultLookup: WebFetchLookup = (hostname) => dnsLookup(hostname, { all: true });

/** Parses the tool's URL (or a redirect's Location against the current URL); http(s) only. */
function parseHttpUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new WebFetchError(
      'INVALID_URL',
      base === undefined ? `Not a valid URL: ${text}` : `Redirect from ${base.href} to an invalid URL: ${text}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const what = base === undefined ? `Cannot fetch ${url.href}` : `Redirect from ${base.href} to ${url.href} refused`;
    throw new WebFetchError('INVALID_URL', `${what}: web_fetch only fetches http:// and https:// URLs`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebFetchError('INVALID_URL', 'URLs with a user name or password are not supported by web_fetch');
  }
  url.hash = '';
  return url;
}

/** The URL's host without IPv6 brackets, as http.request and isIP want it. */
function bareHostname(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Makes the socket connect to the vetted address whatever DNS says now, so a name cannot resolve
 * to a public address for the check and a private one for the connection (DNS rebinding). The
 * host name is still used for the Host header, TLS SNI and certificate verification.
 */
function pinnedLookup(target: VettedTarget): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    // Node calls `lookup` with `all: true` when it races address families (autoSelectFamily).
    process.nextTick(() => {
      if (lookupOptions.all === true) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    });
  };
}

function sendRequest(url: URL, target: VettedTarget, signal: AbortSignal): Promise<http.IncomingMessage> {
  const requestOptions: http.RequestOptions = {
    hostname: bareHostname(url),
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { ...REQUEST_HEADERS },
    family: target.family,
    lookup: pinnedLookup(target),
    // No pooled sockets: each connection is made to the address vetted for this hop.
    agent: false,
    signal,
  };
  return new Promise((resolve, reject) => {
    const req = url.protocol === 'https:' ? https.request(requestOptions) : http.request(requestOptions);
    req.once('response', resolve);
    // `on`, not `once`: an abort after the response can emit a second error, which must not go unhandled.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) {
        reject(err);
        return;
      }
      // Codes alone for the common errno cases; TLS messages say what did not match, so keep them.
      const detail =
        err.code === undefined ? err.message : err.message.includes(err.code) ? err.code : `${err.code}: ${err.message}`;
      reject(new WebFetchError('CONNECTION_FAILED', `Request to ${url.href} failed: ${detail}`, { cause: err }));
    });
    req.end();
  });
}

/** Reads the (decompressed) body, refusing it as soon as it passes `maxBytes`. */
async function readBody(res: http.IncomingMessage, url: URL, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = (): WebFetchError =>
    new WebFetchError(
      'RESPONSE_TOO_LARGE',
      `Response from ${url.href} is larger than the ${maxBytes}-byte limit (max_response_bytes); refused`,
    );
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const stream = decodedStream(res, url);
  addAbortSignal(signal, stream);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      total += buf.length;
      // Checked before keeping the chunk: never more than the limit in memory.
      if (total > maxBytes) throw tooLarge();
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof WebFetchError || signal.aborted) throw err;
    const detail = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new WebFetchError('BAD_RESPONSE', `Reading the response from ${url.href} failed: ${detail}`, { cause: err });
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

/** The body with its Content-Encoding undone; the size limit applies to the decoded bytes. */
function decodedStream(res: http.IncomingMessage, url: URL): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return res;
  let decoder: zlib.Unzip | zlib.BrotliDecompress;
  // The flush modes let a truncated compressed body yield what it has, as in browsers.
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') {
    decoder = zlib.createUnzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } else if (encoding === 'br') {
    decoder = zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  } else {
    throw new WebFetchError('BAD_RESPONSE', `Response from ${url.href} uses an unsupported content encoding: ${encoding}`);
  }
  // pipeline destroys both streams when either fails; the error surfaces from the decoder.
  return pipeline(res, decoder, () => undefined);
}

function parseContentType(header: string | undefined): { mime: string; charset: string | undefined } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset: string | undefined;
  for (const param of params) {
    const [key = '', value = ''] = param.split('=');
    if (key.trim().toLowerCase() === 'charset') charset = value.trim().replace(/^["']|["']$/g, '');
  }
  return { mime: type.trim().toLowerCase(), charset };
}

function unsupportedType(what: string, url: URL): WebFetchError {
  return new WebFetchError(
    'UNSUPPORTED_CONTENT_TYPE',
    `Cannot read ${url.href}: ${what} is not supported; web_fetch reads HTML pages and plain text only`,
  );
}

/** Without a Content-Type: binary is refused, markup is read as HTML, the rest as text. */
function sniffKind(body: Buffer, url: URL): FetchedPage['kind'] {
  const head = body.subarray(0, 8192);
  if (head.includes(0)) throw unsupportedType('binary content without a content type', url);
  return /<(!doctype\s+html|html|head|body|title|p|div)[\s>]/i.test(head.toString('latin1')) ? 'html' : 'text';
}

/** Decodes with the BOM, else the header's charset, else an HTML `<meta>` charset, else UTF-8. */
function decodeText(body: Buffer, headerCharset: string | undefined, kind: FetchedPage['kind']): string {
  let label = headerCharset;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = 'utf-8';
  else if (body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
  else if (body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
  else if (label === undefined && kind === 'html') {
    label = /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    // Unknown charset label: UTF-8 is the best guess left.
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Rejects with the signal's reason once it aborts: DNS lookups cannot be cancelled. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// ---------------------------------------------------------------------------------------------
// HTML to Markdown

/** The part of the linkedom DOM used here (the project compiles without the DOM lib). */
interface DomElement {
  readonly innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}

interface DomDocument {
  readonly documentElement: { readonly localName: string } | null;
  readonly body: DomElement | null;
  readonly title: string;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
}

type ParseHTML = (html: string) => { document: DomDocument };
let parseHTMLImpl: ParseHTML | undefined;

/**
 * linkedom, loaded on first use with Node's own `require`. Its CommonJS build requires the ESM-only
 * css-select, which only Node's native require(esm) loads (Node >= 20.19); require emulations such
 * as jest's cannot, and loading lazily keeps importing this module cheap. Typed here with the part
 * we use: linkedom's declarations are ESM-only and written against the DOM lib.
 */
function parseHTML(html: string): { document: DomDocument } {
  if (parseHTMLImpl === undefined) {
    const nativeRequire = process.getBuiltinModule('node:module').createRequire(__filename);
    parseHTMLImpl = (nativeRequire('linkedom') as { parseHTML: ParseHTML }).parseHTML;
  }
  return parseHTMLImpl(html);
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
});
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg']);

/**
 * Parses a page with linkedom. linkedom needs an `<html>` root (a bare fragment has no body and an
 * empty string no document element), so anything else is wrapped first.
 */
function parseDocument(html: string): DomDocument {
  const { document } = parseHTML(html);
  if (document.documentElement?.localName === 'html') return document;
  const wrapped = /<(head|body)[\s>]/i.test(html) ? `<html>${html}</html>` : `<html><head></head><body>${html}</body></html>`;
  return parseHTML(`<!DOCTYPE html>${wrapped}`).document;
}

/**
 * Resolves links and image sources against the page URL (or its `<base href>`), so Markdown links
 * work out of context; drops `javascript:` links and inline `data:` images, which are noise.
 */
function absolutizeLinks(document: DomDocument, pageUrl: URL): void {
  let base = pageUrl;
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (baseHref != null) {
    try {
      base = new URL(baseHref, pageUrl);
    } catch {
      // An invalid <base> is ignored, as browsers do.
    }
  }
  const rewrite = (el: DomElement, attr: string): string | null => {
    const value = el.getAttribute(attr)?.trim();
    if (value === undefined || value === '' || value.startsWith('#')) return null;
    try {
      const absolute = new URL(value, base);
      el.setAttribute(attr, absolute.href);
      return absolute.protocol;
    } catch {
      return null;
    }
  };
  for (const a of document.querySelectorAll('a[href]')) {
    if (rewrite(a, 'href') === 'javascript:') a.removeAttribute('href');
  }
  for (const img of document.querySelectorAll('img[src]')) {
    if (rewrite(img, 'src') === 'data:') img.remove();
  }
}

/** Main content of an HTML page as Markdown, with the page title (null when it has none). */
export function htmlToMarkdown(html: string, pageUrl: URL): { title: string | null; markdown: string } {
  const document = parseDocument(html);
  absolutizeLinks(document, pageUrl);
  const docTitle = collapseSpaces(document.title);
  let article: ReturnType<Readability['parse']> = null;
  try {
    article = new Readability(document).parse();
  } catch {
    // Readability gives up on some odd documents; the body fallback below still works.
  }
  const title = collapseSpaces(article?.title ?? '') || docTitle || null;
  const content = article?.content ?? '';
  let markdown = content === '' ? '' : turndown.turndown(content).trim();
  if (markdown === '') {
    // Readability mutated the first document: read the body of a fresh one.
    const fresh = parseDocument(html);
    absolutizeLinks(fresh, pageUrl);
    const body = fresh.body?.innerHTML ?? '';
    markdown = body === '' ? '' : turndown.turndown(body).trim();
  }
  return { title, markdown };
}

function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The tool's output: `Title: <title> | URL: <final url>`, a blank line, then the Markdown (HTML) or
 * the text as-is (text/plain), all within `maxChars`.
 */
export function renderPage(page: FetchedPage, maxChars: number): string {
  const { title, markdown } =
    page.kind === 'html' ? htmlToMarkdown(page.text, page.url) : { title: null, markdown: page.text.trim() };
  const header = `Title: ${clip(title ?? '(none)', 200)} | URL: ${clip(page.url.href, 500)}`;
  const body = markdown === '' ? '(the page has no readable text)' : markdown;
  return `${header}\n\n${capHeadTail(body, Math.max(0, maxChars - header.length - 2))}`;
}
