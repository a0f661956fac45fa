/**
 * Content that islands receive as props. The schemas live here, in browser code, because islands
 * may not import the generator; the generator's content model composes them.
 */
import { z } from 'zod';

const text = z.string().trim().min(1);
const describe = <T extends z.ZodType>(schema: T, description: string): T => schema.meta({ description });

export const contactTextsSchema = z.strictObject({
  fields: z.strictObject({
    firstName: text, lastName: text, email: text, phone: text, message: text, honeypot: text,
  }),
  messagePlaceholder: text,
  submit: text,
  submitting: text,
  errors: z.strictObject({ firstName: text, lastName: text, email: text, phone: text, message: text }),
  success: z.strictObject({ title: text, description: text }),
  failure: describe(z.strictObject({ title: text, description: text }), '{phone} is filled in'),
});

export const discountTextsSchema = z.strictObject({
  title: text,
  text,
  fields: z.strictObject({ email: text, phone: text }),
  submit: text,
  submitting: text,
  close: text,
  consent: text,
  errors: z.strictObject({ email: text, phone: text }),
  success: z.strictObject({ title: text, description: text }),
  failure: z.strictObject({ title: text, description: text }),
  notification: z.strictObject({ firstName: text, lastName: text, message: text }),
  delayMs: z.int().min(0),
  scrollPauseMs: z.int().min(0),
  sessionFlag: text,
});

export const formsSchema = z.strictObject({ contact: contactTextsSchema, discount: discountTextsSchema });

const checklistValue = describe(z.union([z.boolean(), z.literal('N/A')]), 'true, false or "N/A"');

export const checklistColumnsSchema = z.strictObject({ task: text, routine: text, deep: text, moveInOut: text });

export const checklistRoomsSchema = z.array(z.strictObject({
  id: z.string().regex(/^[a-z-]+$/),
  label: describe(text, 'Short tab label, e.g. Bath'),
  name: describe(text, 'Full room name, e.g. Bathrooms'),
  tasks: z.array(z.strictObject({
    task: text,
    routine: z.boolean(),
    deep: z.boolean(),
    moveInOut: checklistValue,
  })).min(1),
})).min(1);

export type ContactTexts = z.infer<typeof contactTextsSchema>;
export type DiscountTexts = z.infer<typeof discountTextsSchema>;
export type Forms = z.infer<typeof formsSchema>;
export type ChecklistValue = z.infer<typeof checklistValue>;
export type ChecklistColumns = z.infer<typeof checklistColumnsSchema>;
export type ChecklistRoom = z.infer<typeof checklistRoomsSchema>[number];
