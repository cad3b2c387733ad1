import type { calendar_v3 } from '@googleapis/calendar';
import type Stripe from 'stripe';
import { describe, expect, expectTypeOf, it } from 'vitest';
import calendarList from '../fixtures/google-api/calendar-list.json';
import holidays from '../fixtures/google-api/events-holidays.json';
import oldProject from '../fixtures/google-api/events-old-project.json';
import primary from '../fixtures/google-api/events-primary.json';
import work from '../fixtures/google-api/events-work.json';
import charges from '../fixtures/stripe/charges.json';
import customers from '../fixtures/stripe/customers.json';
import type { Recordable, UnknownFields } from './sdk-shapes';

/**
 * The fakes' recordings against the providers' own SDK types (`stripe`, `@googleapis/calendar`, dev
 * dependencies only): the type checks (`npm run typecheck`) fail when a field is misnamed or of the wrong
 * type; the tests check what types cannot, such as Stripe's literal `object` names.
 */
describe('the Google Calendar fixtures have the shape of Calendar API v3 (calendar_v3 types)', () => {
  it('holds the calendar list and every calendar’s events to Schema$CalendarList and Schema$Events', () => {
    expectTypeOf(calendarList).toExtend<Recordable<calendar_v3.Schema$CalendarList>>();
    expectTypeOf<UnknownFields<typeof calendarList, calendar_v3.Schema$CalendarList>>().toBeNever();
    for (const events of [primary, work, oldProject, holidays]) {
      expect(events.kind).toBe('calendar#events');
    }
    expectTypeOf(primary).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof primary, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(work).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof work, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(oldProject).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof oldProject, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(holidays).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof holidays, calendar_v3.Schema$Events>>().toBeNever();
  });

  it('carries every event type Google documents, each with the properties of its type', () => {
    const types = new Set(primary.items.map((event) => event.eventType));
    expect([...types].sort()).toEqual(
      ['birthday', 'default', 'focusTime', 'fromGmail', 'outOfOffice', 'workingLocation'].sort(),
    );
    const properties: Record<string, string> = {
      birthday: 'birthdayProperties',
      focusTime: 'focusTimeProperties',
      outOfOffice: 'outOfOfficeProperties',
      workingLocation: 'workingLocationProperties',
    };
    for (const event of primary.items) {
      const wanted = properties[event.eventType];
      if (wanted) expect(event, event.summary).toHaveProperty(wanted);
    }
  });
});

describe('the Stripe fixtures have the shape of the Stripe API (stripe types)', () => {
  it('holds the charges to ApiList<Charge> and the customers to ApiList<Customer>', () => {
    expectTypeOf(charges).toExtend<Recordable<Stripe.ApiList<Stripe.Charge>>>();
    expectTypeOf<UnknownFields<typeof charges, Stripe.ApiList<Stripe.Charge>>>().toBeNever();
    expectTypeOf(customers).toExtend<Recordable<Stripe.ApiList<Stripe.Customer>>>();
    expectTypeOf<UnknownFields<typeof customers, Stripe.ApiList<Stripe.Customer>>>().toBeNever();
    expect(charges.object).toBe('list');
    expect(charges.data.every((charge) => charge.object === 'charge')).toBe(true);
    expect(customers.data.every((customer) => customer.object === 'customer')).toBe(true);
  });
});
