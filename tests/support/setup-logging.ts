import { installWorkerLogging, logLevelFromEnv } from '../../src/worker/install-logging';

// Quiet worker logs in tests unless asked for (DEERFLOW_LOG_LEVEL=INFO npm test).
installWorkerLogging(logLevelFromEnv());
