package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import java.util.ArrayList;
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
 */
final class StopBody {

    static final List<String> FIELDS = List.of("targetDirectory", "drain", "formatType", "triggerId", "requestId");
    private static final String EXAMPLE = "{\"targetDirectory\": \"s3://bucket/savepoints\", \"drain\": false}";

    private StopBody() {
    }

    /**
     * Reads a body into the savepoint it asks for.
     *
     * @throws ApiException 400 naming what is malformed, unknown or of the wrong type
     */
    static TriggerBody parse(String text) {
        if (text == null || text.isBlank()) {
            return stop(null, false, null, null);
        }
        JsonNode root = BodyFields.object(text, EXAMPLE);
        List<String> problems = new ArrayList<>();
        BodyFields.unknownFields(root, "", FIELDS, problems);
        String target = BodyFields.optionalText(root, "", "targetDirectory", problems);
        Boolean drain = BodyFields.flag(root, "", "drain", problems);
        SavepointFormat format = BodyFields.choice(root, "", "formatType", SavepointFormat.class, problems);
        String requestId = BodyFields.requestId(root, problems);
        BodyFields.requireNone(problems);
        return stop(target, Boolean.TRUE.equals(drain), format, requestId);
    }

    private static TriggerBody stop(String target, boolean drain, SavepointFormat format, String requestId) {
        return new TriggerBody(CheckpointType.SAVEPOINT, null, target, requestId,
                drain ? PostCheckpointAction.TERMINATE : PostCheckpointAction.SUSPEND,
                TriggerBody.options(null, format, null, null));
    }
}
