package dev.cairn.sidecar.hook.http;

import static dev.cairn.sidecar.hook.http.HookBinding.integer;
import static dev.cairn.sidecar.hook.http.HookBinding.optionalInteger;
import static dev.cairn.sidecar.hook.http.HookBinding.orElse;
import static dev.cairn.sidecar.hook.http.HookBinding.read;
import static dev.cairn.sidecar.hook.http.HookBinding.required;
import static dev.cairn.sidecar.hook.http.HookBinding.text;
import static dev.cairn.sidecar.hook.http.HookBinding.write;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.CheckpointOptions;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.http.HookMessages.DiscardBody;
import dev.cairn.sidecar.hook.http.HookMessages.ErrorBody;
import dev.cairn.sidecar.hook.http.HookMessages.NotificationBody;
import dev.cairn.sidecar.hook.http.HookMessages.RestoreBody;
import dev.cairn.sidecar.hook.http.HookMessages.SharedBody;
import dev.cairn.sidecar.hook.http.HookMessages.SnapshotRequestBody;
import dev.cairn.sidecar.hook.http.HookMessages.SnapshotResultBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JSON of the hook protocol, shared by the HTTP hook (request and response bodies), the command hook
 * (a snapshot command's standard output) and the sample worker (the server side).
 *
 * <ul>
 *   <li>snapshot request: {@code {"checkpointId","timestampMs","type","storageLocation","jobId"}}, then
 *       {@code "taskId","subtaskIndex"} for a task or {@code "participant"} for a participant, then the
 *       options {@code "backupType"} (FULL|INCREMENTAL), {@code "savepointFormat"} (CANONICAL|NATIVE),
 *       {@code "postCheckpointAction"} (NONE|SUSPEND|TERMINATE), {@code "alignment"}
 *       (ALIGNED|UNALIGNED|AT_LEAST_ONCE|FORCED_ALIGNED), {@code "alignedTimeoutMs"} (-1: never) and the derived
 *       {@code "synchronous"} (a stop-with-savepoint) and {@code "drain"} (it drains first), and last
 *       {@code "latestCompletedId"}: the newest completed checkpoint of the job the sidecar knew of when it
 *       asked, -1 when none ({@link SnapshotRequest#latestCompletedId}: a worker restored from an older one
 *       must decline). Options that are absent read as the defaults, an absent {@code "latestCompletedId"} as
 *       -1; the derived flags are not read.</li>
 *   <li>snapshot result: {@code {"location","sizeBytes"}} plus optional {@code "syncDurationMs",
 *       "asyncDurationMs", "alignmentDurationMs", "bytesPersisted"} (durations default to 0,
 *       {@code bytesPersisted} to {@code sizeBytes}) and {@code "shared"}: the shared objects of an incremental
 *       snapshot, {@code [{"location","sizeBytes","reused"}]} ({@code reused} defaults to false; absent: none),
 *       and what it declares for a rescale: {@code "keyGroups"} ({@code {"startKeyGroup","endKeyGroup"}}, both
 *       included, {@code 0 <= start <= end}) for keyed state, {@code "operatorStateMode"}
 *       ({@code SPLIT_DISTRIBUTE|UNION}) for state that is not keyed (absent: not declared); other fields are
 *       ignored. A participant may answer without {@code "location"} (e.g. {@code {}}): no state.
 *       A task whose input is exhausted may answer {@code {"finished":true}}, with {@code "location","sizeBytes"}
 *       (and {@code "shared"}) for its final state.</li>
 *   <li>notification: {@code {"checkpointId","outcome":"COMPLETED","lastSubsumedId","stopping","drain"}} or
 *       {@code {"checkpointId","outcome":"ABORTED","latestCompletedId","stopFailed"}}; the flags read as false
 *       when absent</li>
 *   <li>discard: {@code {"checkpointId","location","sizeBytes","status","message","shared"}} for the state of an
 *       ack the coordinator did not accept ({@code "status"}: UNKNOWN|DISCARDED|LATE), or
 *       {@code {"checkpointId","location","sizeBytes","message","reason","shared"}} for a checkpoint's state it
 *       discarded ({@code "reason"}: SUBSUMED|ABORTED|DISPOSED); exactly one of {@code "status"} and
 *       {@code "reason"}; {@code "shared"} (whether the object is a shared object) reads as false when
 *       absent</li>
 *   <li>restore: {@code {"checkpointId","location","sizeBytes","chosen","shared"}} ({@code "shared"}: the restore
 *       point's shared objects as in a snapshot result, {@code []} for a self-contained state; absent reads as
 *       none), then {@code "parallelism","previousParallelism","maxParallelism","rescaled","keyGroups","states"}
 *       (how the task restores and every state the subtask reads, {@link RestoreJson}; {@code "location"} absent
 *       after a rescale), or {@code {}} when there is nothing to restore; a task's attempt as
 *       {@code "attemptId"} and {@code "attemptNumber"}</li>
 *   <li>error: {@code {"error": "..."}}, with {@code "reason"} (a checkpoint failure reason) when a worker
 *       declines</li>
 * </ul>
 * The bodies are the records of {@link HookMessages}, bound by Jackson ({@link HookBinding}). Parsing is strict
 * about what it needs (duplicate fields, trailing content and values of another JSON type are errors) and every
 * error names the field at fault.
 */
public final class HookJson {

    /** How many characters of a body {@link #excerpt} keeps. */
    public static final int MAX_EXCERPT = 1024;

    private HookJson() {
    }

    /** The body of a snapshot request. */
    public static String snapshotRequest(SnapshotRequest request) {
        CheckpointOptions options = request.options();
        boolean participant = request.isParticipant();
        return write(new SnapshotRequestBody(request.checkpointId(), request.timestampMs(), request.type(),
                request.storageLocation(), request.jobId(), participant ? null : request.taskId(),
                participant ? null : (long) request.subtaskIndex(), participant ? request.participant() : null,
                options.backupType(), options.savepointFormat(), options.postCheckpointAction(), options.alignment(),
                options.alignedTimeoutMs(), options.synchronous(), options.drain(), request.latestCompletedId()));
    }

    /** Reads a snapshot request body. */
    public static SnapshotRequest parseSnapshotRequest(String body) throws MalformedHookMessageException {
        SnapshotRequestBody r = read(body, "snapshot request", SnapshotRequestBody.class);
        long checkpointId = integer(r.checkpointId(), "checkpointId", 0);
        long timestampMs = integer(r.timestampMs(), "timestampMs", 0);
        CheckpointType type = required(r.type(), "type");
        String storageLocation = text(r.storageLocation(), "storageLocation");
        String jobId = text(r.jobId(), "jobId");
        CheckpointOptions defaults = CheckpointOptions.DEFAULTS;
        CheckpointOptions options = new CheckpointOptions(orElse(r.backupType(), defaults.backupType()),
                orElse(r.savepointFormat(), defaults.savepointFormat()),
                orElse(r.postCheckpointAction(), defaults.postCheckpointAction()),
                orElse(r.alignment(), defaults.alignment()),
                optionalInteger(r.alignedTimeoutMs(), "alignedTimeoutMs", -1, defaults.alignedTimeoutMs()));
        long latestCompletedId = optionalInteger(r.latestCompletedId(), "latestCompletedId",
                SnapshotRequest.NO_COMPLETED_CHECKPOINT, SnapshotRequest.NO_COMPLETED_CHECKPOINT);
        if (r.participant() != null) {
            String participant = text(r.participant(), "participant");
            if (r.taskId() != null || r.subtaskIndex() != null) {
                throw new MalformedHookMessageException("fields taskId and subtaskIndex must be absent when field "
                        + "participant is given: a request is for a task or for a participant");
            }
            return SnapshotRequest.forParticipant(checkpointId, timestampMs, type,
                    storageLocation, jobId, participant, options).withLatestCompletedId(latestCompletedId);
        }
        String taskId = text(r.taskId(), "taskId");
        long subtaskIndex = integer(r.subtaskIndex(), "subtaskIndex", 0);
        if (subtaskIndex > Integer.MAX_VALUE) {
            throw new MalformedHookMessageException("field subtaskIndex is too large: " + subtaskIndex);
        }
        return SnapshotRequest.forTask(checkpointId, timestampMs, type, storageLocation, jobId, taskId,
                (int) subtaskIndex, options).withLatestCompletedId(latestCompletedId);
    }

    /**
     * The body of a snapshot result ({@code "finished"} only when true; no location when it has no state;
     * {@code "shared"} only when it names shared objects).
     */
    public static String snapshotResult(SnapshotResult result) {
        boolean hasState = result.location() != null;
        return write(new SnapshotResultBody(result.location(), hasState ? result.sizeBytes() : null,
                result.syncDurationMs(), result.asyncDurationMs(), result.alignmentDurationMs(),
                result.bytesPersisted(), result.finished() ? Boolean.TRUE : null,
                result.shared().isEmpty() ? null : sharedBodies(result.shared()), RestoreJson.body(result.keyGroups()),
                result.operatorStateMode()));
    }

    /** Reads a task's snapshot result: it needs a location unless it says the task finished. */
    public static SnapshotResult parseSnapshotResult(String body) throws MalformedHookMessageException {
        return parseSnapshotResult(body, false);
    }

    /**
     * Reads a snapshot result.
     *
     * @param stateOptional whether a result without a location is no state (a participant's answer) rather than
     *     an error; a finished result needs no location either way
     */
    public static SnapshotResult parseSnapshotResult(String body, boolean stateOptional)
            throws MalformedHookMessageException {
        SnapshotResultBody r = read(body, "snapshot result", SnapshotResultBody.class);
        boolean finished = orElse(r.finished(), false);
        boolean hasState = r.location() != null || r.sizeBytes() != null || !(finished || stateOptional);
        String location = hasState ? text(r.location(), "location") : null;
        long sizeBytes = hasState ? integer(r.sizeBytes(), "sizeBytes", 0) : 0;
        return new SnapshotResult(location, sizeBytes, optionalInteger(r.syncDurationMs(), "syncDurationMs", 0, 0),
                optionalInteger(r.asyncDurationMs(), "asyncDurationMs", 0, 0),
                optionalInteger(r.alignmentDurationMs(), "alignmentDurationMs", 0, 0),
                optionalInteger(r.bytesPersisted(), "bytesPersisted", 0, sizeBytes), finished,
                sharedObjects(r.shared(), "shared"), RestoreJson.keyGroups(r.keyGroups(), "keyGroups"),
                r.operatorStateMode());
    }

    /** The body of a notification. */
    public static String notification(HookNotification notification) {
        boolean completed = notification.outcome() == HookNotification.Outcome.COMPLETED;
        return write(new NotificationBody(notification.checkpointId(), notification.outcome(),
                completed ? notification.relatedId() : null, completed ? null : notification.relatedId(),
                completed ? notification.stopping() : null, completed ? notification.drain() : null,
                completed ? null : notification.stopFailed()));
    }

    /** Reads a notification body. */
    public static HookNotification parseNotification(String body) throws MalformedHookMessageException {
        NotificationBody r = read(body, "notification", NotificationBody.class);
        long checkpointId = integer(r.checkpointId(), "checkpointId", 0);
        HookNotification.Outcome outcome = required(r.outcome(), "outcome");
        boolean completed = outcome == HookNotification.Outcome.COMPLETED;
        long relatedId = integer(completed ? r.lastSubsumedId() : r.latestCompletedId(), outcome.relatedField(), -1);
        return completed
                ? new HookNotification(checkpointId, outcome, relatedId, orElse(r.stopping(), false),
                        orElse(r.drain(), false), false)
                : new HookNotification(checkpointId, outcome, relatedId, false, false, orElse(r.stopFailed(), false));
    }

    /** The body of a discard call: the ack's {@code "status"} or the checkpoint's {@code "reason"}. */
    public static String discard(DiscardedState state) {
        return write(new DiscardBody(state.checkpointId(), state.location(), state.sizeBytes(), state.status(),
                state.message(), state.reason(), state.shared()));
    }

    /** Reads a discard body: it names an ack's status or a checkpoint's discard reason, not both. */
    public static DiscardedState parseDiscard(String body) throws MalformedHookMessageException {
        DiscardBody r = read(body, "discard request", DiscardBody.class);
        if ((r.status() == null) == (r.reason() == null)) {
            throw new MalformedHookMessageException(r.status() == null ? "missing field status (an ack's state) or"
                    + " reason (a checkpoint's state)" : "fields status and reason must not both be given: a"
                    + " discarded state is an ack's or a checkpoint's");
        }
        return new DiscardedState(integer(r.checkpointId(), "checkpointId", 0), text(r.location(), "location"),
                integer(r.sizeBytes(), "sizeBytes", 0), r.status(), orElse(r.message(), ""), r.reason(),
                orElse(r.shared(), false));
    }

    /** The body of a restore call without an attempt (a participant's): the point to restore from, or {@code {}}. */
    public static String restore(Optional<RestorePoint> from) {
        return restore(from, Optional.empty());
    }

    /**
     * The body of a restore call: the point to restore from with its shared objects, how its task restores and the
     * states the subtask reads (no field of it for a fresh start; see {@link RestoreJson}), and a task's attempt as
     * {@code attemptId} and {@code attemptNumber}.
     */
    public static String restore(Optional<RestorePoint> from, Optional<AttemptNumber> attempt) {
        return RestoreJson.restore(from, attempt);
    }

    /**
     * Reads the point of a restore body: no field of a restore point (as in {@code {}}) is a fresh start; a body
     * without the fields of a rescale (written before rescaling existed) reads as the own state, the task's
     * parallelism unknown.
     */
    public static Optional<RestorePoint> parseRestore(String body) throws MalformedHookMessageException {
        return RestoreJson.parseRestore(body);
    }

    /** Reads the attempt of a restore body: empty when it names none (a participant's). */
    public static Optional<AttemptNumber> parseAttempt(String body) throws MalformedHookMessageException {
        RestoreBody r = read(body, "restore request", RestoreBody.class);
        if (r.attemptId() == null && r.attemptNumber() == null) {
            return Optional.empty();
        }
        return Optional.of(new AttemptNumber(text(r.attemptId(), "attemptId"),
                integer(r.attemptNumber(), "attemptNumber", 0)));
    }

    /**
     * A list of shared objects as JSON, {@code [{"location","sizeBytes","reused"}]}: the {@code "shared"} of a
     * restore body, on its own (the command hook hands it to a restoring command in a file).
     */
    public static String shared(List<SharedObject> shared) {
        try {
            return HookBinding.MAPPER.writeValueAsString(sharedBodies(shared));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + shared, e);
        }
    }

    /**
     * The states a restoring subtask reads as JSON, {@code [{"fromSubtask","location","sizeBytes","shared",
     * "keyGroups","operatorStateMode"}]}: the {@code "states"} of a restore body, on its own (the command hook hands
     * it to a restoring command in a file).
     */
    public static String states(List<RestoredState> states) {
        try {
            return HookBinding.MAPPER.writeValueAsString(RestoreJson.stateBodies(states));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + states, e);
        }
    }

    /** The shared objects of a state, as JSON bodies. */
    static List<SharedBody> sharedBodies(List<SharedObject> shared) {
        return shared.stream().map(o -> new SharedBody(o.location(), o.sizeBytes(), o.reused())).toList();
    }

    /**
     * The shared objects of a state read from JSON ({@code null}: none); each needs a location and a size of at
     * least 0, {@code reused} reads as false when absent. A shared object that is a state's own location, or listed
     * twice, is no JSON matter: the sidecar declines such a result itself. Errors name an object by its path,
     * {@code name[i]}.
     */
    static List<SharedObject> sharedObjects(List<SharedBody> bodies, String name)
            throws MalformedHookMessageException {
        if (bodies == null) {
            return List.of();
        }
        List<SharedObject> shared = new ArrayList<>(bodies.size());
        for (int i = 0; i < bodies.size(); i++) {
            SharedBody body = bodies.get(i);
            String field = name + "[" + i + "]";
            if (body == null) {
                throw new MalformedHookMessageException("field " + field + " must be an object, was null");
            }
            shared.add(new SharedObject(text(body.location(), field + ".location"),
                    integer(body.sizeBytes(), field + ".sizeBytes", 0), orElse(body.reused(), false)));
        }
        return shared;
    }

    /** An error body: {@code {"error": message}}. */
    public static String error(String message) {
        return write(new ErrorBody(message, null));
    }

    /**
     * A body as error messages quote it: trimmed, {@code (empty body)} when there is nothing, and cut after
     * {@value #MAX_EXCERPT} characters.
     */
    public static String excerpt(String body) {
        String trimmed = body == null ? "" : body.strip();
        if (trimmed.isEmpty()) {
            return "(empty body)";
        }
        if (trimmed.length() <= MAX_EXCERPT) {
            return trimmed;
        }
        return trimmed.substring(0, MAX_EXCERPT) + "... (" + (trimmed.length() - MAX_EXCERPT) + " more characters)";
    }

    /** A decline's body: {@code {"error": message, "reason": reason}}. */
    public static String declined(String reason, String message) {
        return write(new ErrorBody(message, reason));
    }
}
