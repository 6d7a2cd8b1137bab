// The BullMQ queue that the coordinator and the workers share unless told otherwise (kept apart from the
// adapter so that the CLI can name it without loading BullMQ).
export const defaultQueueName = 'hsa-sft';
