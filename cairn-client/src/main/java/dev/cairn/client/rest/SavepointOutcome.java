package dev.cairn.client.rest;

/**
 * A completed checkpoint or savepoint, as a request for it ended.
 *
 * @param jobId the job
 * @param requestId the request that asked for it
 * @param checkpointId its checkpoint id
 * @param checkpointType CHECKPOINT or SAVEPOINT
 * @param location where it is (Flink's savepoint path)
 */
public record SavepointOutcome(String jobId, String requestId, long checkpointId, String checkpointType,
        String location) {
}
