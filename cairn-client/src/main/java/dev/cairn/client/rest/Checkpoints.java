package dev.cairn.client.rest;

import static dev.cairn.client.rest.RequestState.number;
import static dev.cairn.client.rest.RequestState.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's checkpoint statistics as {@code GET /jobs/{jobId}/checkpoints} shows them (Flink's checkpoint statistics):
 * the counts, the latest completed checkpoint, savepoint and failure, the pending checkpoints and the history,
 * newest first. Fields the client does not read are ignored, so a coordinator that shows more still reads.
 *
 * @param counts how many were triggered, are in progress, completed, failed
 * @param latestCompleted the newest completed checkpoint or savepoint, {@code null} when none
 * @param latestSavepoint the newest completed savepoint, {@code null} when none
 * @param latestFailed the newest failed one, {@code null} when none
 * @param pending the checkpoints in progress
 * @param history the newest ended checkpoints, newest first
 */
public record Checkpoints(Counts counts, Summary latestCompleted, Summary latestSavepoint, Summary latestFailed,
        List<Summary> pending, List<Summary> history) {

    public Checkpoints {
        pending = List.copyOf(pending);
        history = List.copyOf(history);
    }

    /** Flink's checkpoint counts. */
    public record Counts(long triggered, long inProgress, long completed, long failed) {

        static Counts of(JsonNode json) {
            if (json == null || json.isNull()) {
                return new Counts(0, 0, 0, 0);
            }
            return new Counts(json.path("triggered").asLong(), json.path("in_progress").asLong(),
                    json.path("completed").asLong(), json.path("failed").asLong());
        }
    }

    /**
     * One checkpoint.
     *
     * @param id its id
     * @param status IN_PROGRESS, COMPLETED or FAILED
     * @param checkpointType CHECKPOINT or SAVEPOINT
     * @param periodic whether the schedule triggered it (not a request)
     * @param triggerTimestamp when it was triggered, epoch ms
     * @param endToEndDuration how long it took (so far), ms; {@code null} when not known
     * @param stateSize the bytes acknowledged so far
     * @param numSubtasks how many subtasks acknowledge it
     * @param numAcknowledgedSubtasks how many did
     * @param externalPath where it is written
     * @param requestId the request that asked for it, {@code null} for a periodic one
     * @param failureReason why it failed, {@code null} unless it did
     * @param failureMessage the coordinator's words on the failure
     */
    public record Summary(long id, String status, String checkpointType, boolean periodic, long triggerTimestamp,
            Long endToEndDuration, long stateSize, int numSubtasks, int numAcknowledgedSubtasks, String externalPath,
            String requestId, String failureReason, String failureMessage) {

        static Summary of(JsonNode json) {
            if (json == null || json.isNull() || json.isMissingNode()) {
                return null;
            }
            return new Summary(json.path("id").asLong(), text(json, "status", null),
                    text(json, "checkpoint_type", null), json.path("periodic").asBoolean(),
                    json.path("trigger_timestamp").asLong(), number(json, "end_to_end_duration"),
                    json.path("state_size").asLong(), json.path("num_subtasks").asInt(),
                    json.path("num_acknowledged_subtasks").asInt(), text(json, "external_path", null),
                    text(json, "request_id", null), text(json, "failure_reason", null),
                    text(json, "failure_message", null));
        }
    }

    static Checkpoints of(JsonNode json) {
        JsonNode latest = json.path("latest");
        return new Checkpoints(Counts.of(json.get("counts")), Summary.of(latest.get("completed")),
                Summary.of(latest.get("savepoint")), Summary.of(latest.get("failed")), list(json.get("pending")),
                list(json.get("history")));
    }

    static List<Summary> list(JsonNode array) {
        List<Summary> summaries = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(item -> summaries.add(Summary.of(item)));
        }
        return summaries;
    }
}
