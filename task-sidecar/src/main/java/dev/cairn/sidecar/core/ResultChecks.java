package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a snapshot result a hook returned can be answered as it is, and if not, why the sidecar declines it:
 * a task's state needs a location (unless the task finished), only a task finishes, and only a task's state names
 * shared objects, each with a location other than the state's own, a size of at least 0, and listed once. Pure.
 */
final class ResultChecks {

    private ResultChecks() {
    }

    /** Why {@code result} is declined; empty when it is fine. */
    static Optional<AckEvents.Failure> problemOf(SnapshotResult result, boolean participant) {
        if (result == null || (!participant && !result.finished() && !result.hasState())) {
            return failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION,
                    "the snapshot hook returned no state handle location");
        }
        if (participant && result.finished()) {
            return failure(CheckpointFailureReason.CHECKPOINT_DECLINED,
                    "the participant's hook answered that it finished; only tasks finish");
        }
        if (result.shared().isEmpty()) {
            return Optional.empty();
        }
        if (participant) {
            return failure(CheckpointFailureReason.CHECKPOINT_DECLINED, "the participant's hook answered "
                    + result.shared().size() + " shared object(s); only a task's state may name shared objects");
        }
        if (!result.hasState()) {
            return failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "the snapshot hook answered "
                    + result.shared().size() + " shared object(s) but no state handle location");
        }
        return sharedProblem(result.location(), result.shared())
                .map(problem -> new AckEvents.Failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION,
                        "the snapshot hook returned an invalid shared object: " + problem));
    }

    private static Optional<String> sharedProblem(String ownLocation, List<SharedObject> shared) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < shared.size(); i++) {
            SharedObject object = shared.get(i);
            if (object == null) {
                return Optional.of("entry " + i + " is null");
            }
            if (object.location() == null || object.location().isBlank()) {
                return Optional.of("entry " + i + " has no location");
            }
            if (object.sizeBytes() < 0) {
                return Optional.of(object.location() + " has a negative size (" + object.sizeBytes() + ")");
            }
            if (object.location().equals(ownLocation)) {
                return Optional.of(object.location() + " is the state's own location; a shared object is counted"
                        + " apart from the state");
            }
            if (!seen.add(object.location())) {
                return Optional.of(object.location() + " is listed twice");
            }
        }
        return Optional.empty();
    }

    private static Optional<AckEvents.Failure> failure(CheckpointFailureReason reason, String message) {
        return Optional.of(new AckEvents.Failure(reason, message));
    }
}
