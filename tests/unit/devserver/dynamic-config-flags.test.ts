import { startDevArgs } from '../../../src/devserver/cli-dev-server';
import { DEV_SERVER_DYNAMIC_CONFIG, dynamicConfigFlags } from '../../../src/devserver/dynamic-config-flags';

describe('dynamicConfigFlags', () => {
  it('spells each value as `--dynamic-config-value key=<JSON>`', () => {
    expect(dynamicConfigFlags({ 'a.number': 5, 'a.flag': true, 'a.text': 'x' })).toEqual([
      '--dynamic-config-value', 'a.number=5',
      '--dynamic-config-value', 'a.flag=true',
      '--dynamic-config-value', 'a.text="x"',
    ]);
  });

  it('lifts the read limits of all three history queues of the dev server and caches search attribute definitions', () => {
    expect(DEV_SERVER_DYNAMIC_CONFIG).toEqual({
      'history.transferProcessorMaxPollRPS': 1000,
      'history.timerProcessorMaxPollRPS': 1000,
      'history.visibilityProcessorMaxPollRPS': 1000,
      'system.forceSearchAttributesCacheRefreshOnRead': false,
    });
  });

  it('is part of the arguments the embedded dev server starts with', () => {
    const args = startDevArgs({
      ip: '127.0.0.1',
      host: '127.0.0.1',
      port: 7233,
      uiPort: 8233,
      metricsPort: 9233,
      namespace: 'default',
      dbFilename: undefined,
      searchAttributes: [],
      log: () => undefined,
      startTimeoutMs: 1000,
    });
    expect(args.join(' ')).toContain(dynamicConfigFlags().join(' '));
  });
});
