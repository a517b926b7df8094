/** Failure type of activity errors that retrying cannot fix (bad model config, missing API key). */
export const CONFIGURATION_ERROR_TYPE = 'ConfigurationError';
