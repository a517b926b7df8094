/**
 * Errors thrown by the workspace tools and `web_fetch`. The agent runtime turns a thrown tool error
 * into an error ToolMessage, so every message is written for the model: a workspace error names the
 * virtual path it was given, never a host path.
 */

/** Machine-readable reason of a {@link WorkspaceToolError}. */
export type WorkspaceToolErrorCode =
  /** The path leaves `/mnt/user-data` (`..`, another absolute path, or a symlink pointing out). */
  | 'PATH_OUTSIDE_WORKSPACE'
  /** The path is malformed (e.g. contains a NUL byte). */
  | 'INVALID_PATH'
  /** The thread id has characters that could escape the data directory. */
  | 'INVALID_THREAD_ID'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  /** `read_file` on a file that is not text. */
  | 'BINARY_FILE'
  /** `read_file` / `str_replace` on a file larger than `sandbox.max_file_bytes`. */
  | 'FILE_TOO_LARGE'
  | 'PERMISSION_DENIED'
  /** A tool argument is out of range (e.g. `start_line` past the end of the file). */
  | 'INVALID_ARGUMENT'
  /** `str_replace`: `old_str` does not occur in the file. */
  | 'NO_MATCH'
  /** `str_replace`: `old_str` occurs more than once and `replace_all` is not set. */
  | 'AMBIGUOUS_MATCH'
  | 'IO_ERROR';

/** Base class of every error the workspace tools throw on purpose. */
export class WorkspaceToolError extends Error {
  override readonly name: string = 'WorkspaceToolError';
  readonly code: WorkspaceToolErrorCode;

  constructor(code: WorkspaceToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Codes a {@link WorkspacePathError} can carry. */
export type WorkspacePathErrorCode = Extract<WorkspaceToolErrorCode, 'PATH_OUTSIDE_WORKSPACE' | 'INVALID_PATH'>;

/** A path was refused because it is malformed or resolves outside the thread's `/mnt/user-data`. */
export class WorkspacePathError extends WorkspaceToolError {
  override readonly name: string = 'WorkspacePathError';
  declare readonly code: WorkspacePathErrorCode;
  /** The path exactly as the caller gave it. */
  readonly path: string;

  constructor(path: string, message: string, code: WorkspacePathErrorCode = 'PATH_OUTSIDE_WORKSPACE') {
    super(code, message);
    this.path = path;
  }
}

/** True for any {@link WorkspaceToolError} (including {@link WorkspacePathError}). */
export function isWorkspaceToolError(err: unknown): err is WorkspaceToolError {
  return err instanceof WorkspaceToolError;
}

/** True for a refused path. */
export function isWorkspacePathError(err: unknown): err is WorkspacePathError {
  return err instanceof WorkspacePathError;
}

/** True for a {@link WorkspaceToolError} with the given code. */
export function hasWorkspaceErrorCode(err: unknown, code: WorkspaceToolErrorCode): err is WorkspaceToolError {
  return err instanceof WorkspaceToolError && err.code === code;
}

const ERRNO_CODES: Readonly<Record<string, { code: WorkspaceToolErrorCode; text: string }>> = {
  ENOENT: { code: 'NOT_FOUND', text: 'No such file or directory' },
  EISDIR: { code: 'NOT_A_FILE', text: 'Is a directory, not a file' },
  ENOTDIR: { code: 'NOT_A_DIRECTORY', text: 'Not a directory' },
  EACCES: { code: 'PERMISSION_DENIED', text: 'Permission denied' },
  EPERM: { code: 'PERMISSION_DENIED', text: 'Operation not permitted' },
};

/**
 * Turns a Node fs error into a {@link WorkspaceToolError} that names the virtual path, so host
 * paths from the errno message never reach the model. Tool errors pass through unchanged.
 */
export function toWorkspaceToolError(err: unknown, virtualPath: string): WorkspaceToolError {
  if (err instanceof WorkspaceToolError) return err;
  const errno = (err as NodeJS.ErrnoException | undefined)?.code;
  const known = errno === undefined ? undefined : ERRNO_CODES[errno];
  if (known !== undefined) return new WorkspaceToolError(known.code, `${known.text}: ${virtualPath}`, { cause: err });
  return new WorkspaceToolError('IO_ERROR', `I/O error on ${virtualPath}: ${errno ?? 'unknown error'}`, { cause: err });
}

/** Machine-readable reason of a {@link WebFetchError}. */
export type WebFetchErrorCode =
  /** Not a URL, not http(s), or carries credentials. */
  | 'INVALID_URL'
  /** The host is, or resolves to, a loopback/private/link-local/... address. */
  | 'BLOCKED_ADDRESS'
  | 'DNS_FAILED'
  /** Connection refused or reset, TLS failure. */
  | 'CONNECTION_FAILED'
  /** Redirect without Location, unknown Content-Encoding, corrupt or cut-off body. */
  | 'BAD_RESPONSE'
  | 'TIMEOUT'
  | 'TOO_MANY_REDIRECTS'
  /** The final response is not 2xx. */
  | 'HTTP_STATUS'
  /** JSON, images, PDFs, ...: only HTML and plain text are read. */
  | 'UNSUPPORTED_CONTENT_TYPE'
  /** The body is larger than `max_response_bytes`. */
  | 'RESPONSE_TOO_LARGE';

/**
 * Error thrown by the `web_fetch` tool on purpose. Like the workspace errors, the message is
 * written for the model: it names the URL and says what to do differently when there is a choice.
 */
export class WebFetchError extends Error {
  override readonly name: string = 'WebFetchError';
  readonly code: WebFetchErrorCode;

  constructor(code: WebFetchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True for a {@link WebFetchError}, optionally only one with the given code. */
export function isWebFetchError(err: unknown, code?: WebFetchErrorCode): err is WebFetchError {
  return err instanceof WebFetchError && (code === undefined || err.code === code);
}
