import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  RUN_STOP_REASONS,
  STOP_REASON_LABELS,
  STOP_REASONS,
  StopReasonSchema,
  SubagentStatus,
  WIRE_STATUSES,
  WireStatusSchema,
  isTerminalStatus,
} from '../../../src/contracts/status';

interface StatusContract {
  version: unknown;
  description: unknown;
  valid_status_values: unknown;
  valid_stop_reason_values: unknown;
}

const CONTRACT_PATH = join(__dirname, '../../../src/contracts/subagent_status_contract.json');
const contract = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8')) as StatusContract;

function stringArray(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new Error(`expected an array of strings, got ${JSON.stringify(value)}`);
  }
  return value;
}

const sorted = (values: readonly string[]): string[] => [...values].sort();

describe('subagent_status_contract.json (SPEC §3.1)', () => {
  it('is version 2 with exactly the documented fields', () => {
    expect(contract.version).toBe(2);
    expect(Object.keys(contract).sort()).toEqual(['description', 'valid_status_values', 'valid_stop_reason_values', 'version']);
    expect(typeof contract.description).toBe('string');
    expect(contract.description).toMatch(/display-only/);
    expect(contract.description).toMatch(/subagent_stop_reason/);
  });

  it('lists the five wire statuses without duplicates', () => {
    const statuses = stringArray(contract.valid_status_values);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(sorted(statuses)).toEqual(['cancelled', 'completed', 'failed', 'polling_timed_out', 'timed_out']);
  });

  it('lists the three stop reasons without duplicates', () => {
    const reasons = stringArray(contract.valid_stop_reason_values);
    expect(new Set(reasons).size).toBe(reasons.length);
    expect(sorted(reasons)).toEqual(['loop_capped', 'token_capped', 'turn_capped']);
  });

  it('statuses are set-equal to WIRE_STATUSES and the WireStatus zod enum', () => {
    const statuses = sorted(stringArray(contract.valid_status_values));
    expect(sorted(WIRE_STATUSES)).toEqual(statuses);
    expect(sorted(WireStatusSchema.options)).toEqual(statuses);
  });

  it('stop reasons are set-equal to STOP_REASONS, the StopReason zod enum and the label map', () => {
    const reasons = sorted(stringArray(contract.valid_stop_reason_values));
    expect(sorted(STOP_REASONS)).toEqual(reasons);
    expect(sorted(StopReasonSchema.options)).toEqual(reasons);
    expect(sorted(Object.keys(STOP_REASON_LABELS))).toEqual(reasons);
  });

  it('the zod enums accept every contract value and reject others', () => {
    for (const s of stringArray(contract.valid_status_values)) expect(WireStatusSchema.safeParse(s).success).toBe(true);
    for (const r of stringArray(contract.valid_stop_reason_values)) expect(StopReasonSchema.safeParse(r).success).toBe(true);
    expect(WireStatusSchema.safeParse('max_turns_reached').success).toBe(false);
    expect(WireStatusSchema.safeParse('running').success).toBe(false);
    expect(StopReasonSchema.safeParse('safety_capped').success).toBe(false);
  });
});

describe('status constants', () => {
  it('labels stop reasons as SPEC §3.2', () => {
    expect(STOP_REASON_LABELS).toEqual({
      token_capped: 'token budget',
      turn_capped: 'turn budget',
      loop_capped: 'repeated tool-call loop',
    });
  });

  it('run stop reasons extend the task stop reasons', () => {
    expect(sorted(RUN_STOP_REASONS)).toEqual(
      sorted([...STOP_REASONS, 'safety_capped', 'model_length_capped', 'subagent_limit_capped']),
    );
  });

  it('terminal statuses are the last four lifecycle statuses', () => {
    expect(Object.values(SubagentStatus).filter(isTerminalStatus)).toEqual(['completed', 'failed', 'cancelled', 'timed_out']);
  });
});
