import { EndpointSlots } from './endpoint-slots.js';

describe('EndpointSlots', () => {
  it('skips an endpoint whose slots are all in flight, and tells a claim how many the others have', () => {
    const slots = new EndpointSlots(2);
    slots.started('slow');
    slots.started('slow');
    slots.started('fast');
    expect(slots.limits()).toEqual({ slots: 2, busy: new Map([['fast', 1]]), skip: ['slow'] });
    slots.ended('slow');
    slots.ended('fast');
    expect(slots.limits()).toEqual({ slots: 2, busy: new Map([['slow', 1]]), skip: [] });
  });

  it('skips an endpoint until each of its failures is recorded', () => {
    const slots = new EndpointSlots(8);
    slots.failed('failing');
    slots.failed('failing');
    expect(slots.limits().skip).toEqual(['failing']);
    slots.recorded('failing');
    expect(slots.limits().skip).toEqual(['failing']);
    slots.recorded('failing');
    expect(slots.limits().skip).toEqual([]);
  });

  it('asks for a claim once an endpoint has a quarter of its slots free, not at each freed slot', () => {
    const slots = new EndpointSlots(8);
    for (let i = 0; i < 8; i++) slots.started('busy');
    expect(slots.ended('busy')).toBe(false);
    expect(slots.ended('busy')).toBe(true);
    slots.started('one');
    expect(slots.ended('one')).toBe(true);
    const single = new EndpointSlots(1);
    single.started('e');
    expect(single.ended('e')).toBe(true);
  });
});
