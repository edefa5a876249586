package dev.cairn.kit.operator;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.kit.storage.LocationNotFoundException;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.sidecar.hook.KeyGroupRange;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import dev.cairn.sidecar.hook.StateUnreadableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * An operator subtask's snapshot objects: its state file ({@link OperatorTaskConfig#stateFileName()}) and its
 * output's part in the checkpoint's storage location, and its key groups' objects. A checkpoint's group objects are
 * shared objects under {@code <job's storage>/shared/<task>-<subtask>/}, written for the checkpoint whose snapshot
 * found the group changed and referred to by the later ones that found it unchanged (an INCREMENTAL checkpoint); a
 * FULL checkpoint writes every group anew, and a savepoint writes its groups into its own directory, so that it
 * shares nothing. A snapshot declares the key groups it holds (the subtask's, {@link OperatorTaskConfig#keyGroups()}),
 * so that a rescaled restore hands it to every subtask whose groups overlap them. All through the task's
 * {@link OperatorTaskConfig#storage()}.
 */
final class SnapshotFiles {

    private SnapshotFiles() {
    }

    /**
     * Writes the snapshot of a {@link SnapshotBook.Ready} pair; answers the state file's location, the bytes written
     * and, for a checkpoint, its group objects as shared objects.
     */
    static SnapshotResult write(OperatorTaskConfig config, IncrementalSnapshots incremental, SnapshotBook.Ready ready)
            throws IOException {
        return write(config, incremental, ready, location -> false);
    }

    /**
     * As {@link #write(OperatorTaskConfig, IncrementalSnapshots, SnapshotBook.Ready)}; a reused object that
     * {@code discarded} names (the coordinator discarded it after the plan, {@link ReusedObjects}) is copied into an
     * object of this checkpoint instead of being referred to.
     */
    static SnapshotResult write(OperatorTaskConfig config, IncrementalSnapshots incremental, SnapshotBook.Ready ready,
            Predicate<String> discarded) throws IOException {
        SnapshotRequest request = ready.request().request();
        SnapshotStorage storage = config.storage();
        PendingState pending = ready.snapshot().state();
        boolean savepoint = request.type() == CheckpointType.SAVEPOINT;
        boolean full = savepoint || request.options().backupType() == BackupType.FULL;
        String manifest = storage.resolve(request.storageLocation(), config.stateFileName());
        String groups = savepoint ? request.storageLocation()
                : storage.resolve(storage.resolve(storage.parent(request.storageLocation()), "shared"),
                        config.taskId() + "-" + config.subtask());
        Map<Integer, byte[]> toWrite = new HashMap<>(pending.plan().toWrite());
        List<KeyGroupObject> objects = new ArrayList<>();
        List<SharedObject> shared = new ArrayList<>();
        for (KeyGroupObject reused : pending.plan().reused()) {
            if (full || discarded.test(reused.location())) {
                toWrite.put(reused.group(), storage.read(reused.location()));
            } else {
                objects.add(reused);
                shared.add(SharedObject.reused(reused.location(), reused.sizeBytes()));
            }
        }
        long written = 0;
        for (Map.Entry<Integer, byte[]> group : toWrite.entrySet()) {
            String location = storage.resolve(groups, savepoint ? config.stateFileName() + ".kg" + group.getKey()
                    : "kg" + group.getKey() + "-c" + request.checkpointId() + "-g" + pending.header().generation());
            storage.write(location, group.getValue());
            written += group.getValue().length;
            objects.add(new KeyGroupObject(group.getKey(), location, group.getValue().length));
            shared.add(SharedObject.written(location, group.getValue().length));
        }
        objects.sort(Comparator.comparingInt(KeyGroupObject::group));
        byte[] state = OperatorStateCodec.encode(pending.header().withGroups(objects, !savepoint));
        storage.write(manifest, state);
        long size = state.length + written + ready.snapshot().output().writeTo(storage.parent(manifest));
        if (savepoint) {
            return SnapshotResult.of(manifest, size).withKeyGroups(config.keyGroups());
        }
        incremental.written(pending.plan(), objects);
        return SnapshotResult.of(manifest, size).withShared(shared).withKeyGroups(config.keyGroups());
    }

    /**
     * The subtask's own state at {@code location}, the entries of its key groups read from their objects.
     *
     * @throws StateUnreadableException when an object of it is missing, truncated or corrupt
     * @throws IOException when it cannot be read, or belongs to another subtask
     */
    static OperatorState read(OperatorTaskConfig config, String location) throws IOException {
        return read(config, location, config.subtask());
    }

    /**
     * The state at {@code location}, written by subtask {@code writer} of the task (another than this one after a
     * rescale), keeping only the key groups this subtask owns ({@link OperatorTaskConfig#keyGroups()}): only their
     * objects are read, and of a file that holds its entries itself (format 1) only their keys are kept.
     *
     * @throws StateUnreadableException when an object of it is missing, truncated or corrupt
     * @throws IOException when it cannot be read, or belongs to another task, input or subtask
     */
    static OperatorState read(OperatorTaskConfig config, String location, int writer) throws IOException {
        return readVersioned(config, location, writer).state();
    }

    /** As {@link #read(OperatorTaskConfig, String, int)}, with the state file's format version. */
    static OperatorStateCodec.Versioned readVersioned(OperatorTaskConfig config, String location, int writer)
            throws IOException {
        OperatorStateCodec.Versioned file = readUnreadable(
                () -> OperatorStateCodec.readVersioned(config.storage(), location), location);
        OperatorState restored = file.state();
        if (!restored.taskId().equals(config.taskId()) || restored.subtask() != writer
                || !restored.inputTopic().equals(config.inputTopic())) {
            throw new IOException("the snapshot " + location + " belongs to operator " + restored.taskId()
                    + " subtask " + restored.subtask() + " reading " + restored.inputTopic() + ", not to operator "
                    + config.taskId() + " subtask " + writer + " reading " + config.inputTopic()
                    + " (an operator restores only the snapshots its restore point names)");
        }
        KeyGroupRange range = config.keyGroups();
        int max = config.maxParallelism();
        Map<KeyedState.Key, byte[]> entries = new HashMap<>();
        restored.entries().forEach((key, value) -> {
            if (range.contains(KeyGroups.of(key.bytes(), max))) {
                entries.put(key, value);
            }
        });
        List<KeyGroupObject> kept = new ArrayList<>();
        for (KeyGroupObject group : restored.groups()) {
            if (group.group() >= max) {
                throw new IOException("the snapshot " + location + " holds key group " + group.group() + ", and "
                        + "operator " + config.name() + " has " + max + " (its max parallelism changed?)");
            }
            if (range.contains(group.group())) {
                kept.add(group);
                entries.putAll(readUnreadable(() -> KeyGroupCodec.decode(config.storage().read(group.location()),
                        group.location(), config.taskId(), writer, group.group(), max), group.location()));
            }
        }
        return new OperatorStateCodec.Versioned(new OperatorState(restored.taskId(), restored.subtask(),
                restored.checkpointId(), restored.generation(), restored.inputTopic(), restored.positions(), entries,
                kept, restored.groupsShared()), file.version());
    }

    /**
     * The location of subtask {@code subtask}'s state file in the directory of the state file at {@code location}:
     * the file that index wrote of the same checkpoint, named as {@link OperatorTaskConfig#stateFileName()} names
     * a subtask's.
     */
    static String stateFileBeside(OperatorTaskConfig config, String location, int subtask) throws IOException {
        return config.storage().resolve(config.storage().parent(location), config.stateFileName(subtask));
    }

    /** The directory of the snapshot whose state file is at {@code location}; empty for the initial state. */
    static Optional<String> directoryOf(OperatorTaskConfig config, Optional<String> location) throws IOException {
        return location.isPresent() ? Optional.of(config.storage().parent(location.get())) : Optional.empty();
    }

    /**
     * Deletes an object the coordinator discarded: a shared object as it is named; a state file of the task (this
     * subtask's, or after a rescale another index's) with that index's output parts next to it.
     */
    static void discard(OperatorTaskConfig config, IntFunction<List<String>> outputParts, String location)
            throws IOException {
        SnapshotStorage storage = config.storage();
        storage.delete(location);
        String prefix = "/operator-" + config.taskId() + "-";
        int at = location.lastIndexOf(prefix);
        String index = at < 0 || !location.endsWith(".state") ? ""
                : location.substring(at + prefix.length(), location.length() - ".state".length());
        if (!index.isEmpty() && index.chars().allMatch(Character::isDigit) && index.length() < 10) {
            String directory = storage.parent(location);
            for (String part : outputParts.apply(Integer.parseInt(index))) {
                storage.delete(storage.resolve(directory, part));
            }
        }
    }

    /** A read of a snapshot object. */
    @FunctionalInterface
    private interface Read<T> {
        T read() throws IOException;
    }

    /**
     * The read's value; a missing object is a {@link StateUnreadableException} naming the location, as one that is not
     * an intact object of its kind already is ({@link dev.cairn.kit.state.StateFile}), so that the job falls back to
     * an older checkpoint.
     */
    private static <T> T readUnreadable(Read<T> read, String location) throws IOException {
        try {
            return read.read();
        } catch (LocationNotFoundException e) {
            throw new StateUnreadableException("the snapshot object " + location + " does not exist: "
                    + e.getMessage(), e);
        }
    }
}
