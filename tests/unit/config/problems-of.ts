import { isConfigError, parseConfigText } from '../../../src/config';

/** The problem lines of a config text that must be rejected. @throws when it is accepted */
export function problemsOf(text: string): readonly string[] {
  try {
    parseConfigText(text, null);
  } catch (err) {
    if (isConfigError(err)) return err.problems;
    throw err;
  }
  throw new Error('expected the config to be rejected');
}
