import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';

import {
  DATE_TIMEZONE_ENV,
  dateContextMiddleware,
  dateReminderMessage,
  dateReminderText,
  formatReminderDate,
  isValidTimeZone,
  timeZoneFromEnv,
} from '../../../src/middleware/agent/date-context-middleware';
import { RecordingChatModel } from './recording-chat-model';

// 23:30 UTC on Tuesday 4 March 2025: already Wednesday in Tokyo.
const INSTANT = new Date('2025-03-04T23:30:00Z');

describe('formatReminderDate (SPEC §6.7: %Y-%m-%d, %A)', () => {
  it('formats in the given IANA zone', () => {
    expect(formatReminderDate(INSTANT, 'UTC')).toBe('2025-03-04, Tuesday');
    expect(formatReminderDate(INSTANT, 'Asia/Tokyo')).toBe('2025-03-05, Wednesday');
    expect(formatReminderDate(INSTANT, 'America/Los_Angeles')).toBe('2025-03-04, Tuesday');
    expect(formatReminderDate(new Date('2024-12-31T12:00:00Z'), 'UTC')).toBe('2024-12-31, Tuesday');
  });

  it('changes the day at midnight in the zone, also between calls a second apart', () => {
    // Midnight in Kathmandu (UTC+05:45) is 18:15 UTC.
    expect(formatReminderDate(new Date('2025-03-04T18:14:59Z'), 'Asia/Kathmandu')).toBe('2025-03-04, Tuesday');
    expect(formatReminderDate(new Date('2025-03-04T18:15:00Z'), 'Asia/Kathmandu')).toBe('2025-03-05, Wednesday');
    expect(formatReminderDate(new Date('2025-03-04T18:15:59Z'), 'Asia/Kathmandu')).toBe('2025-03-05, Wednesday');
    // The same minute in another zone is that zone's date.
    expect(formatReminderDate(new Date('2025-03-04T18:15:30Z'), 'UTC')).toBe('2025-03-04, Tuesday');
    expect(formatReminderDate(new Date('2025-03-04T18:15:30Z'), 'Asia/Kathmandu')).toBe('2025-03-05, Wednesday');
  });

  it('formats a zone\'s date once per minute', () => {
    const formats = jest.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      for (const second of ['05', '30', '59']) expect(formatReminderDate(new Date(`2025-06-01T10:20:${second}Z`), 'Europe/Paris')).toBe('2025-06-01, Sunday');
      expect(formats).toHaveBeenCalledTimes(1);
      expect(formatReminderDate(new Date('2025-06-01T10:21:00Z'), 'Europe/Paris')).toBe('2025-06-01, Sunday');
      expect(formats).toHaveBeenCalledTimes(2);
    } finally {
      formats.mockRestore();
    }
  });

  it('uses local time without a zone', () => {
    const weekday = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][INSTANT.getDay()];
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(formatReminderDate(INSTANT)).toBe(`${INSTANT.getFullYear()}-${pad(INSTANT.getMonth() + 1)}-${pad(INSTANT.getDate())}, ${weekday}`);
  });
});

describe('the reminder message', () => {
  it('has the fixed text and hidden, dated kwargs', () => {
    expect(dateReminderText('2025-03-04, Tuesday')).toBe('<system-reminder>\n<current_date>2025-03-04, Tuesday</current_date>\n</system-reminder>');
    const message = dateReminderMessage('2025-03-04, Tuesday');
    expect(message.content).toBe('<system-reminder>\n<current_date>2025-03-04, Tuesday</current_date>\n</system-reminder>');
    expect(message.additional_kwargs).toEqual({ hide_from_ui: true, dynamic_context_reminder: true, reminder_date: '2025-03-04, Tuesday' });
  });
});

describe('time zone settings', () => {
  it(`reads ${DATE_TIMEZONE_ENV}, ignoring blank or unknown zones`, () => {
    expect(DATE_TIMEZONE_ENV).toBe('DEERFLOW_DATE_TIMEZONE');
    expect(timeZoneFromEnv({ DEERFLOW_DATE_TIMEZONE: ' Asia/Tokyo ' })).toBe('Asia/Tokyo');
    expect(timeZoneFromEnv({ DEERFLOW_DATE_TIMEZONE: 'Mars/Olympus' })).toBeUndefined();
    expect(timeZoneFromEnv({ DEERFLOW_DATE_TIMEZONE: '' })).toBeUndefined();
    expect(timeZoneFromEnv({})).toBeUndefined();
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Nowhere')).toBe(false);
  });

  it('rejects an unknown zone or option at construction', () => {
    expect(() => dateContextMiddleware({ timeZone: 'Nowhere' })).toThrow('unknown IANA time zone');
    expect(() => dateContextMiddleware({ zone: 'UTC' } as never)).toThrow();
  });

  it('takes the zone from the environment when no option is given', async () => {
    const saved = process.env[DATE_TIMEZONE_ENV];
    process.env[DATE_TIMEZONE_ENV] = 'Asia/Tokyo';
    try {
      const middleware = dateContextMiddleware({ now: () => INSTANT });
      const agent = createAgent({ model: RecordingChatModel.answering(['done']).model, tools: [], middleware: [middleware] });
      const { messages } = await agent.invoke({ messages: [new HumanMessage('task')] });
      expect(messages[1]?.additional_kwargs['reminder_date']).toBe('2025-03-05, Wednesday');
    } finally {
      if (saved === undefined) delete process.env[DATE_TIMEZONE_ENV];
      else process.env[DATE_TIMEZONE_ENV] = saved;
    }
  });
});

describe('dateContextMiddleware inside createAgent', () => {
  it('adds exactly one hidden SystemMessage before the first model call', async () => {
    const { model, calls } = RecordingChatModel.answering(['done']);
    const agent = createAgent({ model, tools: [], middleware: [dateContextMiddleware({ now: () => INSTANT, timeZone: 'UTC' })] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('task')] });

    expect(messages.map((m) => m.type)).toEqual(['human', 'system', 'ai']);
    const added = messages[1];
    expect(SystemMessage.isInstance(added)).toBe(true);
    expect(added?.content).toBe('<system-reminder>\n<current_date>2025-03-04, Tuesday</current_date>\n</system-reminder>');
    expect(added?.additional_kwargs).toEqual({ hide_from_ui: true, dynamic_context_reminder: true, reminder_date: '2025-03-04, Tuesday' });
    // Without the coalescer the reminder reaches the model where it sits: after the task.
    expect(calls[0]?.map((m) => m.type)).toEqual(['human', 'system']);
  });
});
