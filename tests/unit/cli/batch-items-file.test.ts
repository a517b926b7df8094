import { parseBatchItemsFile, pointAtLines } from '../../../src/cli/batch-items-file';
import { CliExit } from '../../../src/cli/load-cli-config';

function failure(text: string): CliExit {
  try {
    parseBatchItemsFile(text, 'items.jsonl');
  } catch (err) {
    if (err instanceof CliExit) return err;
    throw err;
  }
  throw new Error('expected a CliExit');
}

describe('parseBatchItemsFile', () => {
  test('one item per non-blank line, with the line each came from', () => {
    const text = '{"prompt":"a"}\n\n   \n{"prompt":"b","acceptance_criteria":["file:x non-empty"]}\r\n{"key":"k","prompt":"c"}\n';
    expect(parseBatchItemsFile(text, 'items.jsonl')).toEqual({
      items: [{ prompt: 'a' }, { prompt: 'b', acceptance_criteria: ['file:x non-empty'] }, { key: 'k', prompt: 'c' }],
      lines: [1, 4, 5],
    });
  });

  test('a byte order mark does not break the first line', () => {
    expect(parseBatchItemsFile('\uFEFF{"prompt":"a"}', 'f.jsonl').items).toEqual([{ prompt: 'a' }]);
  });

  test('every bad line is named FILE:LINE, with exit code 2', () => {
    const err = failure('{"prompt":"a"}\n\n{"prompt": oops}\n[1, 2]\n"text"\n{"prompt": 5, "extra": true}\n');
    expect(err.exitCode).toBe(2);
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('Invalid batch file, nothing was started:');
    expect(lines[1]).toMatch(/^items\.jsonl:3: not valid JSON \(/);
    expect(lines.slice(2)).toEqual([
      'items.jsonl:4: expected a JSON object like {"prompt": "..."}',
      'items.jsonl:5: expected a JSON object like {"prompt": "..."}',
      'items.jsonl:6: prompt: Invalid input: expected string, received number',
      'items.jsonl:6: unknown field(s) extra',
    ]);
  });

  test('a file without items is refused', () => {
    expect(failure('\n  \n').message).toBe('items.jsonl: no items (one JSON object per line, like {"prompt": "..."})');
  });
});

describe('pointAtLines', () => {
  const lines = [1, 3, 4, 7];

  test('item paths become FILE:LINE, one problem per line', () => {
    expect(pointAtLines('items.1.prompt: must not be empty; items.3.key: duplicate key "k" (first at items.0)', 'items.jsonl', lines)).toEqual([
      'items.jsonl:3: prompt: must not be empty',
      'items.jsonl:7: key: duplicate key "k" (first at line 1)',
    ]);
  });

  test('a whole-item problem keeps no field', () => {
    expect(pointAtLines('items.2: bad item', 'f.jsonl', lines)).toEqual(['f.jsonl:4: bad item']);
  });

  test('request fields are named by their flags; others stay as they are', () => {
    expect(pointAtLines('subagent_type: "x" is not an available subagent; title: must not be empty', 'f.jsonl', lines)).toEqual([
      '--subagent: "x" is not an available subagent',
      '--title: must not be empty',
    ]);
    expect(pointAtLines('subagent_batches.enabled: batches are turned off (set it to true in config.yaml)', 'f.jsonl', lines)).toEqual([
      'subagent_batches.enabled: batches are turned off (set it to true in config.yaml)',
    ]);
  });

  test('a semicolon inside a problem does not split it', () => {
    expect(pointAtLines('items.0.prompt: odd; really odd', 'f.jsonl', lines)).toEqual(['f.jsonl:1: prompt: odd; really odd']);
  });
});
