package dev.cairn.sidecar.hook.http;

import static dev.cairn.sidecar.hook.http.HookBinding.integer;
import static dev.cairn.sidecar.hook.http.HookBinding.optionalInteger;
import static dev.cairn.sidecar.hook.http.HookBinding.read;
import static dev.cairn.sidecar.hook.http.HookBinding.text;
import static dev.cairn.sidecar.hook.http.HookBinding.write;

import dev.cairn.sidecar.hook.AttemptNumber;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.http.HookMessages.KeyGroupsBody;
import dev.cairn.sidecar.hook.http.HookMessages.RestoreBody;
import dev.cairn.sidecar.hook.http.HookMessages.RestoredStateBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The JSON of a restore call ({@link HookJson#restore}, {@link HookJson#parseRestore}) and of key-group ranges, which
 * snapshot results declare as well:
 * <ul>
 *   <li>{@code "checkpointId","location","sizeBytes","chosen","shared"}: the point and the subtask's own state
 *       ({@code "location"} absent after a rescale, when the subtask has no own state);</li>
 *   <li>{@code "parallelism","previousParallelism","maxParallelism"} and {@code "keyGroups"}
 *       ({@code {"startKeyGroup","endKeyGroup"}}, both included): how the task restores and the key groups the
 *       subtask owns now, absent when the coordinator did not say; {@code "rescaled"}: whether the two
 *       parallelisms differ (derived, not read);</li>
 *   <li>{@code "states"}: every state the subtask reads, {@code [{"fromSubtask","location","sizeBytes","shared",
 *       "keyGroups","operatorStateMode"}]} ({@code "fromSubtask"}: the subtask of the restore point that wrote it,
 *       -1 when the coordinator did not say; {@code "keyGroups"}, {@code "operatorStateMode"}: as its snapshot
 *       declared them, absent when it declared none). A body without it reads as the own state alone.</li>
 * </ul>
 * A body of a sidecar written before rescaling existed reads as it did: its own state, the parallelism unknown.
 */
final class RestoreJson {

    private RestoreJson() {
    }

    /** The body of a restore call: the point (no field of it for a fresh start) and a task's attempt. */
    static String restore(Optional<RestorePoint> from, Optional<AttemptNumber> attempt) {
        String attemptId = attempt.map(AttemptNumber::attemptId).orElse(null);
        Long attemptNumber = attempt.map(AttemptNumber::number).orElse(null);
        if (from.isEmpty()) {
            return write(new RestoreBody(null, null, null, null, attemptId, attemptNumber, null, null, null, null,
                    null, null, null));
        }
        RestorePoint p = from.get();
        boolean known = p.parallelism() > 0;
        return write(new RestoreBody(p.checkpointId(), p.location(), p.sizeBytes(), p.chosen() ? Boolean.TRUE : null,
                attemptId, attemptNumber, HookJson.sharedBodies(p.shared()), known ? (long) p.parallelism() : null,
                known ? (long) p.previousParallelism() : null, p.maxParallelism() > 0 ? (long) p.maxParallelism()
                        : null, p.rescaled(), body(p.keyGroups()), stateBodies(p.states())));
    }

    /** Reads the point of a restore body: no field of a restore point (as in {@code {}}) is a fresh start. */
    static Optional<RestorePoint> parseRestore(String body) throws MalformedHookMessageException {
        RestoreBody r = read(body, "restore request", RestoreBody.class);
        if (Stream.of(r.checkpointId(), r.location(), r.sizeBytes(), r.chosen(), r.shared(), r.parallelism(),
                r.previousParallelism(), r.maxParallelism(), r.keyGroups(), r.states()).allMatch(Objects::isNull)) {
            return Optional.empty();
        }
        long checkpointId = integer(r.checkpointId(), "checkpointId", 0);
        boolean chosen = Boolean.TRUE.equals(r.chosen());
        List<SharedObject> shared = HookJson.sharedObjects(r.shared(), "shared");
        if (Stream.of(r.parallelism(), r.previousParallelism(), r.maxParallelism(), r.keyGroups(), r.states())
                .allMatch(Objects::isNull)) {
            return Optional.of(new RestorePoint(checkpointId, text(r.location(), "location"),
                    integer(r.sizeBytes(), "sizeBytes", 0), chosen, shared));
        }
        int parallelism = parallelismOf(r);
        int previous = r.previousParallelism() == null ? parallelism
                : bounded(r.previousParallelism(), "previousParallelism", 0);
        int max = r.maxParallelism() == null ? 0 : bounded(r.maxParallelism(), "maxParallelism", 1);
        String location = parallelism != previous && r.location() == null ? null : text(r.location(), "location");
        long sizeBytes = location == null ? optionalInteger(r.sizeBytes(), "sizeBytes", 0, 0)
                : integer(r.sizeBytes(), "sizeBytes", 0);
        List<RestoredState> states = r.states() != null ? states(r.states())
                : location == null ? List.of() : List.of(new RestoredState(-1, location, sizeBytes, shared));
        return Optional.of(new RestorePoint(checkpointId, location, sizeBytes, chosen, shared, parallelism, previous,
                max, keyGroups(r.keyGroups(), "keyGroups"), states));
    }

    /** A key-group range as JSON; {@code null} stays {@code null} (the field is then absent). */
    static KeyGroupsBody body(KeyGroupRange range) {
        return range == null ? null : new KeyGroupsBody((long) range.startKeyGroup(), (long) range.endKeyGroup());
    }

    /**
     * A key-group range read from JSON ({@code null}: none): both ends required, {@code 0 <= start <= end}, each
     * named by its path ({@code field.startKeyGroup}).
     */
    static KeyGroupRange keyGroups(KeyGroupsBody body, String field) throws MalformedHookMessageException {
        if (body == null) {
            return null;
        }
        int start = bounded(body.startKeyGroup(), field + ".startKeyGroup", 0);
        Long end = body.endKeyGroup();
        if (end != null && end < start) {
            throw new MalformedHookMessageException("field " + field + ".endKeyGroup must be an integer >= "
                    + field + ".startKeyGroup (" + start + "): a range holds at least one key group, was " + end);
        }
        return new KeyGroupRange(start, bounded(end, field + ".endKeyGroup", start));
    }

    private static int parallelismOf(RestoreBody r) throws MalformedHookMessageException {
        if (r.parallelism() != null) {
            return bounded(r.parallelism(), "parallelism", 1);
        }
        if (r.previousParallelism() != null || r.maxParallelism() != null) {
            throw new MalformedHookMessageException("missing field parallelism: fields previousParallelism and"
                    + " maxParallelism say how a task restores only with it");
        }
        return 0;
    }

    /** The states a subtask reads, as JSON bodies. */
    static List<RestoredStateBody> stateBodies(List<RestoredState> states) {
        return states.stream().map(s -> new RestoredStateBody((long) s.fromSubtask(), s.location(), s.sizeBytes(),
                HookJson.sharedBodies(s.shared()), body(s.keyGroups()), s.operatorStateMode())).toList();
    }

    private static List<RestoredState> states(List<RestoredStateBody> bodies) throws MalformedHookMessageException {
        List<RestoredState> states = new ArrayList<>(bodies.size());
        for (int i = 0; i < bodies.size(); i++) {
            RestoredStateBody body = bodies.get(i);
            String field = "states[" + i + "]";
            if (body == null) {
                throw new MalformedHookMessageException("field " + field + " must be an object, was null");
            }
            states.add(new RestoredState(bounded(body.fromSubtask(), field + ".fromSubtask", -1),
                    text(body.location(), field + ".location"), integer(body.sizeBytes(), field + ".sizeBytes", 0),
                    HookJson.sharedObjects(body.shared(), field + ".shared"),
                    keyGroups(body.keyGroups(), field + ".keyGroups"), body.operatorStateMode()));
        }
        return states;
    }

    /** A required integer of at least {@code min} that fits an {@code int}. */
    private static int bounded(Long value, String field, long min) throws MalformedHookMessageException {
        long checked = integer(value, field, min);
        if (checked > Integer.MAX_VALUE) {
            throw new MalformedHookMessageException("field " + field + " is too large: " + checked);
        }
        return (int) checked;
    }
}
