import http from 'node:http';

/** The status code of a plain GET, its body discarded: no client keeps a connection open after it. */
export function httpGetStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}
