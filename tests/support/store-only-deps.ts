import type { ActivityDeps } from '../../src/activities/activity-deps';
import { parseConfigText } from '../../src/config';
import type { Stores } from '../../src/store';

/** Activity deps for activities that only use the stores: the default config, no model, an empty subagent queue. */
export function storeOnlyDeps(stores: Stores): ActivityDeps {
  return {
    config: parseConfigText('{}', null),
    stores,
    createModel: () => {
      throw new Error('no model here');
    },
    subagentBacklog: async () => 0,
  };
}
