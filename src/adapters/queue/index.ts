// Scale-out of the pipeline's SFT stage on BullMQ (Redis): the coordinator's job queue and the workers.
export { type BullJobQueueOptions, createBullJobQueue, defaultQueueName } from './bullmq-job-queue.js';
export { type BullUnitWorker, type BullUnitWorkerOptions, startBullUnitWorker } from './bullmq-worker.js';
export { checkRedisUrl, probeRedis } from './redis-connection.js';
