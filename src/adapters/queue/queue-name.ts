// The BullMQ queue that the coordinator and the workers share unless told otherwise (kept apart from the
// adapter so that the CLI can name it without loading BullMQ).
/**
 * The BullMQ queue the coordinator and the workers share unless told otherwise.
 *
 * @example
 * const queue = await createBullJobQueue({ url: 'redis://127.0.0.1:6379', name: defaultQueueName });
 */
export const defaultQueueName = 'hsa-sft';
