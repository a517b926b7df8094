/**
 * The LangChain middleware of tool receipts. Activities only: it loads langchain, so workflow code
 * must never import it.
 */
export { toolReceiptsMiddleware, withToolReceipts, TOOL_RECEIPTS_MIDDLEWARE_NAME } from './tool-receipts-middleware';
