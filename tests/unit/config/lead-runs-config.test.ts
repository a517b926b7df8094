import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('lead_runs.model_steps', () => {
  it('defaults to regular activities', () => {
    expect(parseConfigText('{}', null).lead_runs.model_steps).toBe('activity');
    expect(parseConfigText('lead_runs:\n  model_steps: local\n', null).lead_runs.model_steps).toBe('local');
  });

  it('refuses anything else, naming the key and the choices', () => {
    expect(problemsOf('lead_runs:\n  model_steps: remote\n')).toEqual(['lead_runs.model_steps: must be one of activity, local']);
  });
});
