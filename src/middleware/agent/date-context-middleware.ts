import { SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { DYNAMIC_CONTEXT_REMINDER_KEY } from '../system-message-coalescing';

/** Name the date context middleware registers under. */
export const DATE_CONTEXT_MIDDLEWARE_NAME = 'SubagentDateContextMiddleware';
/** Environment variable naming the IANA time zone of the reminder date (local time when unset). */
export const DATE_TIMEZONE_ENV = 'DEERFLOW_DATE_TIMEZONE';

// Building a formatter costs about as much as a graph step; every task of a worker formats one
// date (and checks the zone of DEERFLOW_DATE_TIMEZONE first). Unknown zones throw and are not kept.
const formats = new Map<string | undefined, Intl.DateTimeFormat>();

function reminderDateFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'long' });
    formats.set(timeZone, format);
  }
  return format;
}

// The last label per zone and the minute it was formatted for: tasks starting in the same minute
// share it. Zones change offsets in whole minutes, so a day never changes within a minute.
const lastLabels = new Map<string | undefined, { readonly minute: number; readonly label: string }>();

/** True when `timeZone` is an IANA zone name this runtime knows (`Europe/Paris`, `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    reminderDateFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * `YYYY-MM-DD, Weekday` (English weekday) of `date` in `timeZone`, or in local time when none.
 * @throws RangeError for an unknown time zone
 */
export function formatReminderDate(date: Date, timeZone?: string): string {
  const minute = Math.floor(date.getTime() / 60_000);
  const last = lastLabels.get(timeZone);
  if (last?.minute === minute) return last.label;
  const parts = reminderDateFormat(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const label = `${part('year')}-${part('month')}-${part('day')}, ${part('weekday')}`;
  lastLabels.set(timeZone, { minute, label });
  return label;
}

/** The reminder's text for a formatted date (SPEC §6.7). */
export function dateReminderText(dateLabel: string): string {
  return `<system-reminder>\n<current_date>${dateLabel}</current_date>\n</system-reminder>`;
}

/** `additional_kwargs` of the reminder: hidden, replaced by newer reminders, dated. */
export interface DateReminderKwargs {
  readonly hide_from_ui: true;
  readonly dynamic_context_reminder: true;
  readonly reminder_date: string;
}

/** The hidden date reminder message for `dateLabel`. */
export function dateReminderMessage(dateLabel: string): SystemMessage {
  const additional_kwargs: DateReminderKwargs = { hide_from_ui: true, [DYNAMIC_CONTEXT_REMINDER_KEY]: true, reminder_date: dateLabel };
  return new SystemMessage({ content: dateReminderText(dateLabel), additional_kwargs: { ...additional_kwargs } });
}

/**
 * The zone named by {@link DATE_TIMEZONE_ENV} in `env`, or undefined when it is unset, blank or
 * not a known zone (a bad deployment setting falls back to local time rather than failing tasks).
 */
export function timeZoneFromEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = env[DATE_TIMEZONE_ENV]?.trim();
  return value !== undefined && value !== '' && isValidTimeZone(value) ? value : undefined;
}

/** Options of {@link currentDateReminder}. */
export interface CurrentDateReminderOptions {
  /** The clock. @default () => new Date() */
  readonly now?: () => Date;
  /** IANA zone of the date; when absent, `DEERFLOW_DATE_TIMEZONE`, else local time. */
  readonly timeZone?: string;
}

/**
 * The hidden date reminder (SPEC §6.7) for the clock's current date, for an agent whose input
 * carries it instead of having {@link dateContextMiddleware} add it in a graph step of its own.
 * @throws RangeError for an unknown `timeZone`
 */
export function currentDateReminder(options: CurrentDateReminderOptions = {}): SystemMessage {
  const now = options.now ?? (() => new Date());
  return dateReminderMessage(formatReminderDate(now(), options.timeZone ?? timeZoneFromEnv(process.env)));
}

const OptionsSchema = z
  .object({
    /** The clock. @default () => new Date() */
    now: z.custom<() => Date>((v) => typeof v === 'function').optional(),
    /** IANA zone of the date; when absent, `DEERFLOW_DATE_TIMEZONE`, else local time. */
    timeZone: z.string().refine(isValidTimeZone, { message: 'unknown IANA time zone' }).optional(),
  })
  .strict();

/** Options of {@link dateContextMiddleware}. */
export type DateContextMiddlewareOptions = z.input<typeof OptionsSchema>;

/**
 * Adds ONE hidden SystemMessage with the current date before the first model call of a run
 * (SPEC §6.7): `<system-reminder>\n<current_date>YYYY-MM-DD, Weekday</current_date>\n</system-reminder>`
 * with `additional_kwargs { hide_from_ui, dynamic_context_reminder, reminder_date }`. Register it
 * just before the system message coalescer, which folds it into the leading system message.
 * The zone is resolved once, when the middleware is built.
 * @throws ZodError for unknown options or an unknown `timeZone`
 */
export function dateContextMiddleware(options: DateContextMiddlewareOptions = {}) {
  const parsed = OptionsSchema.parse(options);
  const now = parsed.now ?? (() => new Date());
  const timeZone = parsed.timeZone ?? timeZoneFromEnv(process.env);
  return createMiddleware({
    name: DATE_CONTEXT_MIDDLEWARE_NAME,
    beforeAgent: () => ({ messages: [dateReminderMessage(formatReminderDate(now(), timeZone))] }),
  });
}
