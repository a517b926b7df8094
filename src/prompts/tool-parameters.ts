import { z } from 'zod';
import { BoundedMap } from '../contracts/bounded-map';

/** Distinct parameter schemas kept: one per tool and subagent list, a handful per config. */
const KEPT_SCHEMAS = 64;

const converted = new BoundedMap<string, Record<string, unknown>>(KEPT_SCHEMAS);

/**
 * The JSON schema of a tool's parameters, converted from zod once per `key` (the tool and what its
 * schema's text depends on): zod's conversion took ~0.25 ms per lead model step and tool. Each call
 * returns its own copy, so a provider that adjusts a request's schema changes nothing kept.
 */
export function toolParameters(key: string, schema: () => z.ZodType): Record<string, unknown> {
  let json = converted.get(key);
  if (json === undefined) {
    json = z.toJSONSchema(schema()) as Record<string, unknown>;
    converted.set(key, json);
  }
  return structuredClone(json);
}
