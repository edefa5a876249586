package dev.cairn.kit.operator;

import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.io.IOException;
import java.util.Optional;

/**
 * An operator subtask's snapshot files in a checkpoint's storage location: its state file
 * ({@link OperatorTaskConfig#stateFileName()}) and its output's part next to it, in the task's
 * {@link OperatorTaskConfig#storage()}.
 */
final class SnapshotFiles {

    private SnapshotFiles() {
    }

    /**
     * Writes the snapshot of a {@link SnapshotBook.Ready} pair into the request's storage location; answers the
     * state file's location and the bytes written.
     */
    static SnapshotResult write(OperatorTaskConfig config, SnapshotBook.Ready ready) throws IOException {
        SnapshotRequest request = ready.request().request();
        SnapshotStorage storage = config.storage();
        String location = storage.resolve(request.storageLocation(), config.stateFileName());
        byte[] state = ready.snapshot().state();
        storage.write(location, state);
        long size = state.length + ready.snapshot().output().writeTo(storage.parent(location));
        return SnapshotResult.of(location, size);
    }

    /**
     * The subtask's state in the file at {@code location}.
     *
     * @throws IOException when it cannot be read, is corrupt, or belongs to another subtask
     */
    static OperatorState read(OperatorTaskConfig config, String location) throws IOException {
        OperatorState restored = OperatorStateCodec.read(config.storage(), location);
        if (!restored.taskId().equals(config.taskId()) || restored.subtask() != config.subtask()
                || !restored.inputTopic().equals(config.inputTopic())) {
            throw new IOException("the snapshot " + location + " belongs to operator " + restored.taskId()
                    + " subtask " + restored.subtask() + " reading " + restored.inputTopic() + ", not to operator "
                    + config.name() + " reading " + config.inputTopic()
                    + " (an operator restores only its own subtask's snapshot)");
        }
        return restored;
    }

    /** The directory of the snapshot whose state file is at {@code location}; empty for the initial state. */
    static Optional<String> directoryOf(OperatorTaskConfig config, Optional<String> location) throws IOException {
        return location.isPresent() ? Optional.of(config.storage().parent(location.get())) : Optional.empty();
    }
}
