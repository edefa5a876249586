package dev.cairn.coordinator.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
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
 */
final class SavepointBody {

    static final List<String> FIELDS = List.of("targetDirectory", "formatType", "cancelJob", "triggerId",
            "requestId");
    private static final String EXAMPLE = "{\"targetDirectory\": \"s3://bucket/savepoints\", "
            + "\"formatType\": \"CANONICAL\"}";

    private SavepointBody() {
    }

    /**
     * Reads a body into the savepoint it asks for.
     *
     * @throws ApiException 400 naming what is malformed, unknown or of the wrong type, or a {@code cancelJob}
     */
    static TriggerBody parse(String text) {
        if (text == null || text.isBlank()) {
            return savepoint(null, null, null);
        }
        JsonNode root = BodyFields.object(text, EXAMPLE);
        List<String> problems = new ArrayList<>();
        BodyFields.unknownFields(root, "", FIELDS, problems);
        String target = BodyFields.optionalText(root, "", "targetDirectory", problems);
        SavepointFormat format = BodyFields.choice(root, "", "formatType", SavepointFormat.class, problems);
        Boolean cancel = BodyFields.flag(root, "", "cancelJob", problems);
        String requestId = BodyFields.requestId(root, problems);
        if (Boolean.TRUE.equals(cancel)) {
            problems.add("cancelJob: true (cancel with savepoint) is not supported; to stop the job with a "
                    + "savepoint use POST /jobs/{jobId}/stop (with \"drain\": true to drain it first)");
        }
        BodyFields.requireNone(problems);
        return savepoint(target, format, requestId);
    }

    private static TriggerBody savepoint(String target, SavepointFormat format, String requestId) {
        return new TriggerBody(CheckpointType.SAVEPOINT, null, target, requestId, PostCheckpointAction.NONE,
                TriggerBody.options(null, format, null, null));
    }
}
