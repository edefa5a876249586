package dev.cairn.coordinator.rest.bodies;

import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.List;

/**
 * The body of {@code POST /jobs/{jobId}/stop}, Flink's stop-with-savepoint ({@code flink stop}):
 * <pre>
 * {"targetDirectory": "s3://bucket/savepoints", "drain": false, "formatType": "CANONICAL"|"NATIVE",
 *  "triggerId": "..."}
 * </pre>
 * Every field may be left out. The job is stopped once the savepoint completes: suspended, or with
 * {@code "drain": true} terminated after its tasks drained their input (Flink's {@code stop --drain}).
 * {@code targetDirectory} left out writes the savepoint under the job's storage base location, {@code formatType}
 * left out takes the job's savepoint format; {@code requestId}, Cairn's name, may stand for {@code triggerId}.
 * Force is left to Flink's default (a savepoint is forced unless the job enables unaligned checkpoints).
 *
 * @param targetDirectory where the savepoint is written, {@code null} for the job's storage base location
 * @param drain whether the tasks drain their input and the job terminates (else it is suspended)
 * @param formatType the savepoint's format, {@code null} for the job's
 * @param triggerId the requester's id (makes the request idempotent), {@code null} to have one generated
 * @param requestId Cairn's name of {@code triggerId}
 */
record StopBody(String targetDirectory, Boolean drain, SavepointFormat formatType, String triggerId,
        String requestId) implements TriggerBody {

    @Override
    public TriggerRequest toRequest(String jobId, String chosenId, long nowMs) {
        return TriggerBody.savepoint(jobId, chosenId, nowMs, targetDirectory, formatType,
                Boolean.TRUE.equals(drain) ? PostCheckpointAction.TERMINATE : PostCheckpointAction.SUSPEND);
    }

    @Override
    public List<String> shapeProblems() {
        return requestIdProblems();
    }
}
