package dev.cairn.coordinator.rest.bodies;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The bodies of {@code POST /jobs/{jobId}/restore} ({@link Restore}) and {@code POST /jobs/{jobId}/savepoints/dispose}
 * ({@link Dispose}), as Jackson binds them, with Flink's names where Flink has the field. Like a trigger body, a body
 * is answered 400 with every problem at once, each named by its JSON field: what Jackson refuses (a wrong type, an
 * unknown field, a restore mode that is neither CLAIM nor NO_CLAIM), fields that contradict each other, and what the
 * coordinator's input checks would refuse ({@link InputChecks}: ids and the path within bounds, an id not negative).
 */
public final class RestoreBodies {

    /** The requester recorded in every request this API produces. */
    static final String REQUESTER = TriggerBody.REQUESTER;

    private RestoreBodies() {
    }

    /**
     * {@code {"savepointPath": "s3://bucket/sp-4", "checkpointId": 4, "restoreMode": "NO_CLAIM"|"CLAIM",
     * "requestId": "..."}}: every field may be left out. A savepoint or retained checkpoint is named by id or by
     * path (not both); neither restores the job's restore point. {@code restoreMode} left out is NO_CLAIM.
     */
    record Restore(String savepointPath, Long checkpointId, RestoreMode restoreMode, String requestId) {
        static final String EXAMPLE = "{\"savepointPath\": \"s3://bucket/savepoints/sp-4\", \"restoreMode\": "
                + "\"NO_CLAIM\"}";
    }

    /**
     * {@code {"savepoint-path": "s3://bucket/sp-4"}} (Flink's body of {@code POST /savepoint-disposal}), or
     * {@code {"savepointPath": ...}} or {@code {"checkpointId": 4}}; exactly one of them, and an optional
     * {@code requestId}.
     */
    record Dispose(@JsonProperty("savepoint-path") String flinkSavepointPath, String savepointPath, Long checkpointId,
            String requestId) {
        static final String EXAMPLE = "{\"savepoint-path\": \"s3://bucket/savepoints/sp-1\"}";
    }

    /**
     * The restore a body asks for.
     *
     * @throws ApiException 400 naming everything that is wrong with it
     */
    public static RestoreJob restore(String text, String jobId, long nowMs, Supplier<String> ids, InputLimits limits) {
        BodyReader.Bound<Restore> bound = BodyReader.read(blankIsEmpty(text), Restore.class, Restore.EXAMPLE);
        Restore body = bound.value();
        List<String> problems = new ArrayList<>(bound.problems().values());
        negativeId(body.checkpointId(), problems);
        blankPath("savepointPath", body.savepointPath(), problems);
        if (body.savepointPath() != null && body.checkpointId() != null) {
            problems.add("savepointPath and checkpointId both name the point to restore; give one of them (or "
                    + "neither, for the job's restore point)");
        }
        RestoreJob restore = RestoreJob.newBuilder().setJobId(jobId)
                .setRequestId(body.requestId() != null ? body.requestId() : ids.get())
                .setCheckpointId(body.checkpointId()).setSavepointPath(body.savepointPath())
                .setRestoreMode(body.restoreMode() == null ? RestoreMode.NO_CLAIM : body.restoreMode())
                .setRequester(REQUESTER).setTimestampMs(nowMs).build();
        if (problems.isEmpty()) {
            InputChecks.problem(new Command.Restore(restore, 0.0), limits).ifPresent(problems::add);
        }
        BodyReader.requireNone(problems);
        return restore;
    }

    /**
     * The disposal a body asks for.
     *
     * @throws ApiException 400 naming everything that is wrong with it
     */
    public static DisposeSavepoint dispose(String text, String jobId, long nowMs, Supplier<String> ids,
            InputLimits limits) {
        BodyReader.Bound<Dispose> bound = BodyReader.read(blankIsEmpty(text), Dispose.class, Dispose.EXAMPLE);
        Dispose body = bound.value();
        List<String> problems = new ArrayList<>(bound.problems().values());
        String path = body.flinkSavepointPath() != null ? body.flinkSavepointPath() : body.savepointPath();
        int named = (body.flinkSavepointPath() != null ? 1 : 0) + (body.savepointPath() != null ? 1 : 0)
                + (body.checkpointId() != null ? 1 : 0);
        negativeId(body.checkpointId(), problems);
        blankPath("savepoint-path", body.flinkSavepointPath(), problems);
        blankPath("savepointPath", body.savepointPath(), problems);
        if (named > 1) {
            problems.add("savepoint-path, savepointPath and checkpointId each name the savepoint to dispose of; "
                    + "give only one");
        } else if (named == 0 && bound.problems().isEmpty()) {
            problems.add("name the savepoint to dispose of: savepoint-path (or savepointPath), or checkpointId; "
                    + "GET /jobs/" + jobId + "/savepoints lists them");
        }
        DisposeSavepoint dispose = DisposeSavepoint.newBuilder().setJobId(jobId)
                .setRequestId(body.requestId() != null ? body.requestId() : ids.get())
                .setCheckpointId(body.checkpointId()).setSavepointPath(path)
                .setRequester(REQUESTER).setTimestampMs(nowMs).build();
        if (problems.isEmpty()) {
            InputChecks.problem(new Command.Dispose(dispose), limits).ifPresent(problems::add);
        }
        BodyReader.requireNone(problems);
        return dispose;
    }

    private static void negativeId(Long checkpointId, List<String> problems) {
        if (checkpointId != null && checkpointId < 0) {
            problems.add("checkpointId must be a checkpoint id (>= 0), not " + checkpointId);
        }
    }

    private static void blankPath(String field, String path, List<String> problems) {
        if (path != null && path.isBlank()) {
            problems.add(field + " is empty (leave it out, or name a savepoint's location)");
        }
    }

    private static String blankIsEmpty(String text) {
        return text == null || text.isBlank() ? "{}" : text;
    }
}
