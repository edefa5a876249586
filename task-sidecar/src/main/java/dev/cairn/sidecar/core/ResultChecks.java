package dev.cairn.sidecar.core;

import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a snapshot result a hook returned can be answered as it is, and if not, why the sidecar declines it:
 * a task's state needs a location (unless the task finished), only a task finishes, and only a task's state names
 * shared objects, each with a location other than the state's own, a size of at least 0, and listed once. Only a
 * task's state declares key groups or an operator state mode (what a rescale redistributes), and only a state that
 * has a location; a key-group range holds at least one group, from group 0 on. Pure.
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
        Optional<AckEvents.Failure> declared = declarationProblem(result, participant);
        return declared.isPresent() ? declared : sharedProblem(result, participant);
    }

    /** Why the key groups or the operator state mode a result declares are declined; empty when fine or none. */
    private static Optional<AckEvents.Failure> declarationProblem(SnapshotResult result, boolean participant) {
        KeyGroupRange keyGroups = result.keyGroups();
        if (keyGroups == null && result.operatorStateMode() == null) {
            return Optional.empty();
        }
        String declared = declared(result);
        if (participant) {
            return failure(CheckpointFailureReason.CHECKPOINT_DECLINED, "the participant's hook answered "
                    + declared + "; only a task's state is redistributed on a rescale, a participant declares"
                    + " neither key groups nor an operator state mode");
        }
        if (!result.hasState()) {
            return failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "the snapshot hook answered "
                    + declared + " but no state handle location");
        }
        if (keyGroups != null && (keyGroups.startKeyGroup() < 0
                || keyGroups.endKeyGroup() < keyGroups.startKeyGroup())) {
            return failure(CheckpointFailureReason.CHECKPOINT_ASYNC_EXCEPTION, "the snapshot hook returned an"
                    + " invalid key-group range " + keyGroups + ": a state's range holds at least one key group,"
                    + " [start, end] with 0 <= start <= end");
        }
        return Optional.empty();
    }

    private static String declared(SnapshotResult result) {
        String keyGroups = result.keyGroups() == null ? null : "key groups " + result.keyGroups();
        String mode = result.operatorStateMode() == null ? null
                : "operator state mode " + result.operatorStateMode();
        if (keyGroups != null && mode != null) {
            return keyGroups + " and " + mode;
        }
        return keyGroups != null ? keyGroups : mode;
    }

    private static Optional<AckEvents.Failure> sharedProblem(SnapshotResult result, boolean participant) {
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
