// One worker process serving both task queues (`deerflow` and `deerflow-subagents`) against an
// existing Temporal cluster: `TEMPORAL_ADDRESS=host:7233 npx ts-node worker.ts [--config FILE]`.
import { main } from './src/cli/main';

void main([process.argv[0] ?? 'node', 'deerflow', 'worker', ...process.argv.slice(2)]).then((code) => process.exit(code));
