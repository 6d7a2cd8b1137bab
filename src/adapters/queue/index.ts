// Scale-out of the pipeline's SFT stage on BullMQ (Redis): the coordinator's job queue and the workers.
export { type BullJobQueueOptions, createBullJobQueue } from './bullmq-job-queue.js';
export { type BullUnitWorker, type BullUnitWorkerOptions, startBullUnitWorker } from './bullmq-worker.js';
export { defaultQueueName } from './queue-name.js';
export {
  checkRedisUrl,
  describeRedisOutage,
  probeRedis,
  type RedisOutageEvent,
} from './redis-connection.js';
