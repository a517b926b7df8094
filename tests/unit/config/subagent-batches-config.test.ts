import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

test('subagent_batches defaults are the SPEC C.3 values, batches off', () => {
  expect(parseConfigText('{}', null).subagent_batches).toEqual({
    enabled: false,
    poll_interval_seconds: 1,
    lease_seconds: 120,
    max_items_per_batch: 5000,
    default_max_live_items: 100,
    max_live_items_per_batch: 1000,
    default_max_running_items: 3,
    max_running_items_per_batch: 64,
    max_attempts: 3,
    max_result_chars: 100_000,
    result_preview_max_chars: 2000,
  });
});

test('subagent_batches validators name the key that breaks the ordering', () => {
  expect(problemsOf('subagent_batches: { default_max_live_items: 2000 }')).toEqual(['subagent_batches.default_max_live_items: must be <= max_live_items_per_batch']);
  expect(problemsOf('subagent_batches: { default_max_running_items: 8, max_running_items_per_batch: 4 }')).toEqual([
    'subagent_batches.default_max_running_items: must be <= max_running_items_per_batch',
  ]);
  expect(problemsOf('subagent_batches: { default_max_running_items: 8, default_max_live_items: 5 }')).toEqual([
    'subagent_batches.default_max_running_items: must be <= default_max_live_items',
  ]);
  expect(problemsOf('subagent_batches: { result_preview_max_chars: 500, max_result_chars: 100 }')).toEqual([
    'subagent_batches.result_preview_max_chars: must be <= max_result_chars',
  ]);
  expect(problemsOf('subagent_batches: { max_attempts: 11, poll_interval_seconds: 0.01 }')).toEqual([
    'subagent_batches.poll_interval_seconds: must be >= 0.1',
    'subagent_batches.max_attempts: must be <= 10',
  ]);
  expect(problemsOf('subagent_batches: { enabled: "yes" }')).toEqual(['subagent_batches.enabled: expected boolean, got string']);
});
