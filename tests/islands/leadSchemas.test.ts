import { describe, expect, it } from 'vitest';
import { contactFormSchema, discountFormSchema, validate } from '../../src/lib/leadSchemas.js';
import { contactTexts, discountTexts } from './fixtures.js';

const contact = contactFormSchema(contactTexts.errors);
const discount = discountFormSchema(discountTexts.errors);
const validContact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '408 555 0186', message: 'Deep clean, 3 bedrooms' };

describe('contact form schema (spec 5)', () => {
  it('accepts a complete form and trims values', () => {
    const r = validate(contact, { ...validContact, firstName: '  Ada ', email: ' ada@example.com ' });
    expect(r).toEqual({ ok: true, data: { ...validContact } });
  });

  it('gives every field its message when empty', () => {
    const r = validate(contact, { firstName: '', lastName: '', email: '', phone: '', message: '' });
    expect(r).toEqual({
      ok: false,
      errors: {
        firstName: 'First name is required',
        lastName: 'Last name is required',
        email: 'Please enter a valid email address',
        phone: 'Phone number is required',
        message: 'Please tell us about your cleaning needs',
      },
    });
  });

  it('treats whitespace as empty', () => {
    const r = validate(contact, { ...validContact, firstName: '   ', message: '\n\t ' });
    expect(r).toEqual({ ok: false, errors: { firstName: 'First name is required', message: 'Please tell us about your cleaning needs' } });
  });

  it.each(['ada', 'ada@', 'ada@example', '@example.com', 'ada example@x.com', 'a@b.c'])('rejects email %j', (email) => {
    expect(validate(contact, { ...validContact, email })).toEqual({ ok: false, errors: { email: 'Please enter a valid email address' } });
  });

  it('has no format check on the phone', () => {
    expect(validate(contact, { ...validContact, phone: 'x' }).ok).toBe(true);
  });

  it('uses the messages it is given', () => {
    const custom = contactFormSchema({ ...contactTexts.errors, firstName: 'Vorname fehlt' });
    expect(validate(custom, { ...validContact, firstName: '' })).toEqual({ ok: false, errors: { firstName: 'Vorname fehlt' } });
  });

  it('rejects values longer than the database allows', () => {
    const r = validate(contact, { ...validContact, firstName: 'a'.repeat(101), message: 'm'.repeat(5001) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['firstName', 'message']);
  });
});

describe('discount form schema (spec 5)', () => {
  it('accepts a valid email and a 10-character phone', () => {
    expect(validate(discount, { email: 'a@example.com', phone: '4085550186' })).toEqual({ ok: true, data: { email: 'a@example.com', phone: '4085550186' } });
  });

  it('rejects an invalid email and a short phone with the spec messages', () => {
    expect(validate(discount, { email: 'nope', phone: '408555018' })).toEqual({
      ok: false,
      errors: { email: 'Please enter a valid email address', phone: 'Please enter a valid phone number' },
    });
  });

  it('counts the phone length after trimming', () => {
    expect(validate(discount, { email: 'a@example.com', phone: '  40855501  ' })).toEqual({
      ok: false, errors: { phone: 'Please enter a valid phone number' },
    });
  });
});
