package dev.cairn.coordinator.rest.bodies;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /jobs/{jobId}/savepoints}, Flink's savepoint trigger ({@code flink savepoint}, Flink's
 * {@code SavepointTriggerRequestBody}):
 * <pre>
 * {"target-directory": "s3://bucket/savepoints", "formatType": "CANONICAL"|"NATIVE", "cancel-job": false,
 *  "triggerId": "..."}
 * </pre>
 * Every field may be left out: {@code target-directory} left out writes the savepoint under the job's storage base
 * location, {@code formatType} left out takes the job's savepoint format. Cairn's earlier names are taken too:
 * {@code targetDirectory} for {@code target-directory}, {@code cancelJob} for {@code cancel-job} and
 * {@code requestId} for {@code triggerId}; a body that gives both names of one field is refused.
 * {@code "cancel-job": true} (Flink's deprecated cancel-with-savepoint) is refused: {@code POST /jobs/{jobId}/stop}
 * stops a job with a savepoint. Force is left to Flink's default.
 *
 * @param flinkTargetDirectory where the savepoint is written, {@code null} for the job's storage base location
 * @param targetDirectory Cairn's name of {@code target-directory}
 * @param formatType the savepoint's format, {@code null} for the job's
 * @param flinkCancelJob Flink's cancel-with-savepoint, refused when true
 * @param cancelJob Cairn's name of {@code cancel-job}
 * @param triggerId the requester's id (makes the request idempotent), {@code null} to have one generated
 * @param requestId Cairn's name of {@code triggerId}
 */
record SavepointBody(@JsonProperty(FLINK_TARGET) String flinkTargetDirectory, String targetDirectory,
        SavepointFormat formatType, @JsonProperty(FLINK_CANCEL) Boolean flinkCancelJob, Boolean cancelJob,
        String triggerId, String requestId) implements TriggerBody {

    static final String FLINK_TARGET = "target-directory";
    static final String FLINK_CANCEL = "cancel-job";

    @Override
    public TriggerRequest toRequest(String jobId, String chosenId, long nowMs) {
        return TriggerBody.savepoint(jobId, chosenId, nowMs, target(), formatType, PostCheckpointAction.NONE);
    }

    @Override
    public List<String> shapeProblems() {
        List<String> problems = new ArrayList<>(requestIdProblems());
        problems.addAll(TriggerBody.bothNames(FLINK_TARGET, flinkTargetDirectory, "targetDirectory", targetDirectory,
                "where the savepoint goes"));
        problems.addAll(TriggerBody.bothNames(FLINK_CANCEL, flinkCancelJob, "cancelJob", cancelJob,
                "whether the job is cancelled"));
        if (Boolean.TRUE.equals(flinkCancelJob) || Boolean.TRUE.equals(cancelJob)) {
            problems.add((flinkCancelJob != null ? FLINK_CANCEL : "cancelJob") + ": true (cancel with savepoint) "
                    + "is not supported; to stop the job with a savepoint use POST /jobs/{jobId}/stop (with "
                    + "\"drain\": true to drain it first), to cancel it PATCH /jobs/{jobId}?mode=cancel");
        }
        return problems;
    }

    @Override
    public String field(String path) {
        return TriggerBody.field(path, Map.of("targetLocation", targetDirectory != null ? "targetDirectory"
                : FLINK_TARGET, "options.savepointFormat", "formatType"),
                requestId() != null ? "requestId" : "triggerId");
    }

    private String target() {
        return flinkTargetDirectory != null ? flinkTargetDirectory : targetDirectory;
    }
}
