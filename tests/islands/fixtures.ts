/** Island props for tests, worded as in the spec (content/forms.yaml holds the real texts). */
import type { ChecklistColumns, ChecklistRoom, ContactTexts, DiscountTexts } from '../../src/lib/contentSchemas.js';
import type { ContactFormProps } from '../../src/islands/ContactForm.js';
import type { DiscountPopupProps } from '../../src/islands/DiscountPopup.js';
import type { ChecklistTabsProps } from '../../src/islands/ChecklistTabs.js';
import type { ReviewsWidgetProps } from '../../src/islands/ReviewsWidget.js';

export const PHONE = '(408) 555-0186';

export const contactTexts: ContactTexts = {
  fields: { firstName: 'First Name', lastName: 'Last Name', email: 'Email', phone: 'Phone', message: 'Message', honeypot: 'Leave this field empty' },
  messagePlaceholder: 'Tell us about your home and the cleaning you need...',
  submit: 'Get My Free Quote',
  submitting: 'Sending...',
  errors: {
    firstName: 'First name is required',
    lastName: 'Last name is required',
    email: 'Please enter a valid email address',
    phone: 'Phone number is required',
    message: 'Please tell us about your cleaning needs',
  },
  success: { title: 'Quote request sent!', description: "We'll get back to you within 24 hours with your personalized quote." },
  failure: { title: 'Something went wrong', description: 'Please try again or call us directly at {phone}' },
};

export const discountTexts: DiscountTexts = {
  title: 'Save $25 on your first cleaning',
  text: "Leave your email and phone and we'll send you a $25 discount code.",
  fields: { email: 'Email', phone: 'Phone' },
  submit: 'Submit',
  submitting: 'Submitting...',
  close: 'Close',
  consent: 'By submitting, you agree to receive SMS messages from Bay Shine Cleaning. Reply STOP to opt out, HELP for help. Standard message and data rates may apply.',
  errors: { email: 'Please enter a valid email address', phone: 'Please enter a valid phone number' },
  success: { title: 'Success!', description: "Thank you! We'll send you the $25 discount code shortly." },
  failure: { title: 'Error', description: 'There was a problem submitting your information. Please try again.' },
  notification: { firstName: 'Discount', lastName: 'Popup', message: 'Signed up for $25 discount offer' },
  delayMs: 5000,
  scrollPauseMs: 100,
  sessionFlag: 'discount-popup-shown',
};

export const checklistColumns: ChecklistColumns = { task: 'Task', routine: 'Routine Clean', deep: 'Deep Clean', moveInOut: 'Move-In/Out' };

export const checklistRooms: ChecklistRoom[] = [
  { id: 'kitchen', label: 'Kitchen', name: 'Kitchen', tasks: [
    { task: 'Wipe countertops', routine: true, deep: true, moveInOut: true },
    { task: 'Degrease oven hood vent', routine: false, deep: true, moveInOut: true },
    { task: 'Clean inside cabinets', routine: false, deep: false, moveInOut: true },
    { task: 'Wipe down table and chairs', routine: true, deep: true, moveInOut: 'N/A' },
  ] },
  { id: 'bathrooms', label: 'Bath', name: 'Bathrooms', tasks: [
    { task: 'Scrub grout', routine: false, deep: true, moveInOut: true },
    { task: 'Clean linen closet', routine: false, deep: false, moveInOut: true },
  ] },
  { id: 'bedrooms', label: 'Bedroom', name: 'Bedrooms', tasks: [
    { task: 'Make beds', routine: true, deep: true, moveInOut: 'N/A' },
    { task: 'Clean inside closets', routine: false, deep: false, moveInOut: true },
  ] },
  { id: 'common-areas', label: 'Common', name: 'Common Areas', tasks: [
    { task: 'Tidy decor', routine: true, deep: true, moveInOut: 'N/A' },
    { task: 'Wipe baseboards', routine: false, deep: true, moveInOut: true },
  ] },
];

export const checklistLabels = { included: 'Included', notIncluded: 'Not included', notApplicable: 'Not applicable' };

export const contactProps: ContactFormProps = { texts: contactTexts, phone: PHONE, page: 'contact' };
export const discountProps: DiscountPopupProps = { texts: discountTexts, page: '/' };
export const checklistProps: ChecklistTabsProps = { rooms: checklistRooms, columns: checklistColumns, labels: checklistLabels };
export const reviewsProps: ReviewsWidgetProps = {
  scriptUrl: 'https://static.elfsight.com/platform/platform.js',
  widgetId: 'elfsight-app-7c1d5e52-3b8a-4f0e-9d6b-2a4c8e1f0b37',
  loading: 'Loading reviews...',
  fallback: 'Our reviews could not be loaded here.',
  linkLabel: 'Read our Google reviews',
  linkUrl: 'https://www.google.com/search?q=Bay+Shine+Cleaning+reviews',
};
