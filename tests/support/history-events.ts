import type { temporal } from '@temporalio/proto';

/** One event of a fetched workflow history. */
export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** A JSON payload's value (the default converter's encoding). */
export function decodeJson(data: Uint8Array | null | undefined): unknown {
  return JSON.parse(Buffer.from(data ?? new Uint8Array()).toString('utf8'));
}

/** The activity types of a history's scheduled (regular) activities, in order. */
export function scheduledActivityTypes(events: readonly HistoryEvent[]): string[] {
  return events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name ?? '');
}

/** The activity types of a history's local activity markers, in order. */
export function localActivityTypes(events: readonly HistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => (decodeJson(e.markerRecordedEventAttributes!.details!['data']!.payloads![0]!.data) as { activity_type: string }).activity_type);
}

/** The ids of a history's patch markers, in order. */
export function patchIds(events: readonly HistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .map((e) => (decodeJson(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data) as { id: string }).id);
}
