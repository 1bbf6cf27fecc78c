import { EndpointSlots } from './endpoint-slots.js';

describe('EndpointSlots', () => {
  it('skips an endpoint whose slots are all in flight, and tells a claim how many the others have', () => {
    const slots = new EndpointSlots(2);
    slots.started('slow');
    slots.started('slow');
    slots.started('fast');
    expect(slots.limits(0)).toEqual({ slots: 2, busy: new Map([['fast', 1]]), skip: ['slow'] });
    slots.ended('slow');
    slots.ended('fast');
    expect(slots.limits(0)).toEqual({ slots: 2, busy: new Map([['slow', 1]]), skip: [] });
    expect(slots.busy('fast')).toBe(0);
  });

  it('holds a failing endpoint until its retry time, the latest of its failures', () => {
    const slots = new EndpointSlots(8);
    slots.hold('failing', 30_000);
    slots.hold('failing', 20_000);
    expect(slots.limits(29_999).skip).toEqual(['failing']);
    expect(slots.limits(30_000).skip).toEqual([]);
    expect(slots.limits(0).skip).toEqual([]); // the expired hold is gone
  });
});
