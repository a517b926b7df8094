import { installWorkerLogging } from '../../src/worker/install-logging';

// Quiet worker logs in tests unless asked for (DEERFLOW_LOG_LEVEL=INFO npm test).
installWorkerLogging((process.env.DEERFLOW_LOG_LEVEL?.toUpperCase() as 'WARN' | undefined) ?? 'WARN');
