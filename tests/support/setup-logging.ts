import { installWorkerRuntime, logLevelFromEnv } from '../../src/worker/install-runtime';

// Quiet worker logs in tests unless asked for (DEERFLOW_LOG_LEVEL=INFO npm test).
installWorkerRuntime({ level: logLevelFromEnv() });
