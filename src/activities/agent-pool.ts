/**
 * Agents kept between executions, by shape (a key naming everything they were built from), each
 * lent to one execution at a time. A worker runs many executions of few shapes, so building an
 * agent (its middleware chain, its compiled graph) happens once per shape and concurrent execution,
 * not once per execution. At most `maxIdle` wait in all; past that the least recently returned
 * shapes' agents are dropped first.
 */
export class AgentPool<T> {
  // In order of last return: the first entry is the least recently used shape.
  readonly #idle = new Map<string, T[]>();
  #size = 0;

  constructor(private readonly maxIdle: number) {}

  /** An idle agent of the shape `key`, else a new one from `build`. Give it back with {@link give}. */
  take(key: string, build: () => T): T {
    const waiting = this.#idle.get(key);
    const agent = waiting?.pop();
    if (agent === undefined) return build();
    this.#size -= 1;
    if (waiting?.length === 0) this.#idle.delete(key);
    return agent;
  }

  /** Returns an agent taken with {@link take} whose execution is over, with nothing of it left running. */
  give(key: string, agent: T): void {
    const waiting = this.#idle.get(key) ?? [];
    waiting.push(agent);
    // Set again so the shape moves to the end: the most recently used.
    this.#idle.delete(key);
    this.#idle.set(key, waiting);
    this.#size += 1;
    for (const [oldest, agents] of this.#idle) {
      if (this.#size <= this.maxIdle) break;
      const kept = agents.slice(Math.min(agents.length, this.#size - this.maxIdle));
      this.#size -= agents.length - kept.length;
      if (kept.length === 0) this.#idle.delete(oldest);
      else this.#idle.set(oldest, kept);
    }
  }

  /** How many agents wait now. */
  get idle(): number {
    return this.#size;
  }
}

const ids = new WeakMap<object, number>();
let nextId = 0;

/**
 * A number for `object`, the same for the same object while it lives: for shape keys naming
 * objects that live longer than one execution (a connected MCP server's tools), which a
 * reconnect replaces.
 */
export function identityOf(object: object): number {
  let id = ids.get(object);
  if (id === undefined) {
    id = nextId++;
    ids.set(object, id);
  }
  return id;
}
