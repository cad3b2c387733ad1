import type { DateContent } from '@digest/contracts/content';
import { DateTime } from 'luxon';
import type { Connector, SourceContext, SourcesDeps } from '#server/sources/connector';
import { SourceError } from '#server/sources/source-error';

/** Today's date where the owner lives, in their language: no provider, only the clock. */
export function dateContent(now: Date, context: Pick<SourceContext, 'timezone' | 'locale'>): DateContent {
  const today = DateTime.fromJSDate(now, { zone: context.timezone });
  if (!today.isValid) {
    throw new SourceError('invalid_request', `"${context.timezone}" is not a time zone this server knows`);
  }
  const local = today.setLocale(context.locale);
  return {
    date: local.toISODate() ?? '',
    formatted: local.toLocaleString(DateTime.DATE_HUGE),
    weekday: local.toFormat('cccc'),
    timezone: context.timezone,
  };
}

export function dateConnector(deps: Pick<SourcesDeps, 'clock'>): Connector<'DATE'> {
  return {
    type: 'DATE',
    fetchContent: async (_source, context) => dateContent(deps.clock.now(), context),
  };
}
