package dev.cairn.coordinator.rest.bodies;

import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /jobs/{jobId}/savepoints}, Flink's savepoint trigger ({@code flink savepoint}):
 * <pre>
 * {"targetDirectory": "s3://bucket/savepoints", "formatType": "CANONICAL"|"NATIVE", "cancelJob": false,
 *  "triggerId": "..."}
 * </pre>
 * Every field may be left out: {@code targetDirectory} left out writes the savepoint under the job's storage base
 * location, {@code formatType} left out takes the job's savepoint format; {@code requestId}, Cairn's name, may
 * stand for {@code triggerId}. {@code "cancelJob": true} (Flink's deprecated cancel-with-savepoint) is refused:
 * {@code POST /jobs/{jobId}/stop} stops a job with a savepoint. Force is left to Flink's default.
 *
 * @param targetDirectory where the savepoint is written, {@code null} for the job's storage base location
 * @param formatType the savepoint's format, {@code null} for the job's
 * @param cancelJob Flink's cancel-with-savepoint, refused when true
 * @param triggerId the requester's id (makes the request idempotent), {@code null} to have one generated
 * @param requestId Cairn's name of {@code triggerId}
 */
record SavepointBody(String targetDirectory, SavepointFormat formatType, Boolean cancelJob, String triggerId,
        String requestId) implements TriggerBody {

    @Override
    public TriggerRequest toRequest(String jobId, String chosenId, long nowMs) {
        return TriggerBody.savepoint(jobId, chosenId, nowMs, targetDirectory, formatType, PostCheckpointAction.NONE);
    }

    @Override
    public List<String> shapeProblems() {
        List<String> problems = new ArrayList<>(requestIdProblems());
        if (Boolean.TRUE.equals(cancelJob)) {
            problems.add("cancelJob: true (cancel with savepoint) is not supported; to stop the job with a "
                    + "savepoint use POST /jobs/{jobId}/stop (with \"drain\": true to drain it first)");
        }
        return problems;
    }
}
