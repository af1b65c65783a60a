import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  assigneeSchema,
  assignmentRuleSchema,
  assignWorkItemSchema,
  newAssignmentRuleSchema,
  resolveWorkItemSchema,
  workItemSchema,
  workNoteInputSchema,
  workQueuePageSchema,
  workQueueQuerySchema,
} from '../workqueue.schema';
import {
  addWorkNote,
  assignWorkItem,
  createAssignmentRule,
  deleteAssignmentRule,
  getWorkItem,
  listAssignees,
  listAssignmentRules,
  listWorkQueue,
  resolveWorkItem,
} from './workqueue.queries';

/** The Work Queue screen (docs/work-queue.md) and the admin's auto-assignment rules. */
export function workqueueRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };
    api.get(
      '/api/work-queue',
      {
        config: { permission: 'workqueue:read' },
        schema: {
          tags: ['work queue'],
          description:
            'Open (or resolved) work items by category, payer and assignee (me, others, unassigned), by due date or ' +
            'dollars at risk, keyset-paged; an audited PHI read.',
          querystring: workQueueQuerySchema,
          response: { 200: workQueuePageSchema, ...errors },
        },
      },
      (request) => listWorkQueue(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/work-queue/assignees',
      {
        config: { permission: 'workqueue:read' },
        schema: { tags: ['work queue'], response: { 200: z.object({ items: z.array(assigneeSchema) }) } },
      },
      async () => ({ items: await listAssignees(deps.db) }),
    );
    api.get(
      '/api/work-items/:id',
      {
        config: { permission: 'workqueue:read' },
        schema: {
          tags: ['work queue'],
          description: 'One item as it stands now (resolved by an action on its claim, for one); an audited PHI read.',
          params: idParamsSchema,
          response: { 200: workItemSchema, ...errors },
        },
      },
      (request) => getWorkItem(deps.db, requestContext(request, deps), request.params.id),
    );
    api.post(
      '/api/work-items/:id/assign',
      {
        config: { permission: 'workqueue:write' },
        schema: {
          tags: ['work queue'],
          description: 'Assigns the item to a billing admin or admin (null unassigns); audited.',
          params: idParamsSchema,
          body: assignWorkItemSchema,
          response: { 200: workItemSchema, ...errors },
        },
      },
      (request) => assignWorkItem(deps.db, requestContext(request, deps), request.params.id, request.body.assigneeId),
    );
    api.post(
      '/api/work-items/:id/notes',
      {
        config: { permission: 'workqueue:write' },
        schema: {
          tags: ['work queue'],
          params: idParamsSchema,
          body: workNoteInputSchema,
          response: { 200: workItemSchema, ...errors },
        },
      },
      (request) => addWorkNote(deps.db, requestContext(request, deps), request.params.id, request.body.body),
    );
    api.post(
      '/api/work-items/:id/resolve',
      {
        config: { permission: 'workqueue:write' },
        schema: {
          tags: ['work queue'],
          description:
            'Resolves the item: appealed, corrected and resubmitted, written off (with its reason) or patient billed; audited.',
          params: idParamsSchema,
          body: resolveWorkItemSchema,
          response: { 200: workItemSchema, ...errors },
        },
      },
      (request) => resolveWorkItem(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
    api.get(
      '/api/work-queue/rules',
      {
        config: { permission: 'workqueue:rules' },
        schema: { tags: ['work queue'], response: { 200: z.object({ items: z.array(assignmentRuleSchema) }) } },
      },
      async () => ({ items: await listAssignmentRules(deps.db) }),
    );
    api.post(
      '/api/work-queue/rules',
      {
        config: { permission: 'workqueue:rules' },
        schema: {
          tags: ['work queue'],
          description: 'Adds an auto-assignment rule (a null payer or category matches any); audited.',
          body: newAssignmentRuleSchema,
          response: { 201: assignmentRuleSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createAssignmentRule(deps.db, requestContext(request, deps), request.body)),
    );
    api.delete(
      '/api/work-queue/rules/:id',
      {
        config: { permission: 'workqueue:rules' },
        schema: { tags: ['work queue'], params: idParamsSchema, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await deleteAssignmentRule(deps.db, requestContext(request, deps), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
