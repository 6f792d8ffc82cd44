// The create_itinerary tool: one zod 4 schema is both what the model is told (the tool's JSON Schema parameters)
// and what the worker checks the streamed arguments against, value by value as each one closes.
import { z } from 'zod';

const Activity = z.object({
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day, HH:MM'),
  name: z.string().min(1),
  cost: z.number().min(0),
});

const Day = z.object({
  day: z.int().min(1),
  city: z.string().min(1),
  activities: z.array(Activity),
  notes: z.string(),
});

export const Itinerary = z.object({
  title: z.string().min(1),
  travelers: z.int().min(1),
  days: z.array(Day).min(1),
  budget: z.object({ total: z.number().min(0), currency: z.enum(['EUR', 'USD', 'JPY']), perDay: z.number().min(0) }),
  confirmed: z.boolean(),
  tags: z.array(z.string()),
});

/** The tool as the Chat Completions request declares it. */
export const createItinerary = {
  type: 'function',
  function: {
    name: 'create_itinerary',
    description: 'Plan a trip: a title, and each day with its city and activities.',
    parameters: z.toJSONSchema(Itinerary),
  },
};
