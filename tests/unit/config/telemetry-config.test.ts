import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('telemetry config', () => {
  it('is off by default: no tracing, no metrics endpoint, text logs', () => {
    expect(parseConfigText('', null).telemetry).toEqual({ otlp_endpoint: null, service_name: 'deerflow', prometheus_bind: null, log_format: 'text' });
  });

  it('accepts an OTLP endpoint, a service name, a Prometheus socket address and JSON logs', () => {
    const config = parseConfigText(
      'telemetry: { otlp_endpoint: "http://collector:4318", service_name: deerflow-eu, prometheus_bind: "[::]:9464", log_format: json }',
      null,
    );
    expect(config.telemetry).toEqual({ otlp_endpoint: 'http://collector:4318', service_name: 'deerflow-eu', prometheus_bind: '[::]:9464', log_format: 'json' });
  });

  it('names the field of each problem', () => {
    expect(problemsOf('telemetry: { otlp_endpoint: collector, prometheus_bind: "localhost:9464", log_format: yaml }')).toEqual([
      expect.stringContaining('telemetry.otlp_endpoint'),
      'telemetry.prometheus_bind: must be IP:port, e.g. 0.0.0.0:9464 or [::]:9464',
      expect.stringContaining('telemetry.log_format'),
    ]);
  });
});

describe('temporal TLS and API key config', () => {
  it('defaults to plaintext without an API key', () => {
    expect(parseConfigText('', null).temporal).toMatchObject({ tls: null, api_key_env: null });
  });

  it('takes TLS files, a server name and the name of the API key variable', () => {
    const config = parseConfigText(
      'temporal: { tls: { client_cert_path: certs/client.pem, client_key_path: certs/client.key, server_name: ns.tmprl.cloud }, api_key_env: TEMPORAL_API_KEY }',
      null,
    );
    expect(config.temporal.tls).toEqual({ client_cert_path: 'certs/client.pem', client_key_path: 'certs/client.key', server_ca_cert_path: null, server_name: 'ns.tmprl.cloud' });
    expect(config.temporal.api_key_env).toBe('TEMPORAL_API_KEY');
  });

  it('refuses half a client certificate pair', () => {
    expect(problemsOf('temporal: { tls: { client_cert_path: client.pem } }')).toEqual([
      'temporal.tls.client_key_path: is required when the other half of the client certificate pair is set',
    ]);
  });
});
