package dev.cairn.client.rest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What became of a request, as {@code GET /jobs/{jobId}/savepoints/{requestId}} shows it.
 *
 * @param jobId the job
 * @param requestId the request id
 * @param stage QUEUED, TRIGGERED, COMPLETED or FAILED
 * @param checkpointType CHECKPOINT or SAVEPOINT, {@code null} before it was triggered (or for a removal)
 * @param checkpointId the checkpoint it triggered, restored or disposed of; {@code null} when none
 * @param location where the checkpoint or savepoint is, {@code null} when not known
 * @param failureReason why it failed (FAILED only), e.g. {@code CHECKPOINT_EXPIRED}
 * @param failureMessage the coordinator's words on the failure (FAILED only)
 */
public record RequestState(String jobId, String requestId, String stage, String checkpointType, Long checkpointId,
        String location, String failureReason, String failureMessage) {

    /** Whether the coordinator is done with it (COMPLETED or FAILED). */
    public boolean ended() {
        return completed() || failed();
    }

    public boolean completed() {
        return "COMPLETED".equals(stage);
    }

    public boolean failed() {
        return "FAILED".equals(stage);
    }

    /** Reads the REST API's answer; fields it does not know are ignored. */
    static RequestState of(String jobId, String requestId, JsonNode json) {
        return new RequestState(jobId, text(json, "request_id", requestId), text(json, "stage", null),
                text(json, "checkpoint_type", null), number(json, "checkpoint_id"), text(json, "location", null),
                text(json, "failure_reason", null), text(json, "failure_message", null));
    }

    static String text(JsonNode json, String field, String otherwise) {
        JsonNode value = json.get(field);
        return value == null || value.isNull() ? otherwise : value.asText();
    }

    static Long number(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value == null || !value.canConvertToLong() ? null : value.asLong();
    }
}
