package dev.cairn.kit.operator;

import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.SinkFailedException;
import dev.cairn.kit.sink.SinkHandover;
import dev.cairn.kit.sink.SinkState;
import dev.cairn.kit.sink.SinkStateCodec;
import dev.cairn.kit.sink.WriteAheadSink;
import dev.cairn.kit.sink.WriteAheadSinkConfig;
import dev.cairn.kit.storage.SnapshotStorage;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * An operator subtask's results written exactly once to a Kafka topic through a {@link WriteAheadSink}: buffered
 * per epoch, the sink's pending epochs saved with the task's snapshot ({@link WriteAheadSinkConfig#snapshotFileName()}
 * next to the task's state file, in the sink's {@link WriteAheadSinkConfig#storage()}), and committed when the
 * checkpoint completes. Every start (restore or rollback) takes over the subtask's transactional id anew and restores
 * the sink from its file of the checkpoint restored, which commits what that snapshot holds and the output lacks;
 * records buffered since are dropped (the task reads their input again). A restore point nobody chose that the
 * output is already ahead of is refused (see {@link RestorePlan}): the start fails and the task stops.
 */
public final class SinkOutput implements TaskOutput {

    private final WriteAheadSinkConfig config;
    private WriteAheadSink<byte[], byte[]> sink;
    private SinkFailedException failure;
    private volatile RestorePlan lastRestore;
    private volatile List<RestorePlan> handedOver = List.of();

    /** An output through a sink configured by {@code config}. */
    public SinkOutput(WriteAheadSinkConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public void start(long restoredFrom, Optional<String> snapshotDirectory, long generation, boolean chosen)
            throws IOException {
        if (sink != null) {
            sink.close();
        }
        sink = new WriteAheadSink<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        Optional<RestorePoint> point = snapshotDirectory.isEmpty() ? Optional.empty()
                : Optional.of(new RestorePoint(restoredFrom, config.storage().resolve(snapshotDirectory.get(),
                        config.snapshotFileName()), 0, chosen));
        guardedIo(() -> lastRestore = sink.restore(point));
    }

    /**
     * Starts after a rescale: first resolves the snapshots of the old subtasks this one answers for
     * ({@link SinkHandover#resolvedBy}), each under its old transactional id (fencing it) with the verdicts of a
     * restore ({@link RestorePlan}); then goes on under its own id, restored from its old snapshot when its index
     * existed before, else with nothing pending ({@link WriteAheadSink#restoreEmpty}).
     */
    @Override
    public void startRescaled(RestorePoint point, long generation) throws IOException {
        if (sink != null) {
            sink.close();
            sink = null;
        }
        SnapshotStorage storage = config.storage();
        Map<Integer, String> directories = new HashMap<>();
        for (RestoredState state : point.states()) {
            directories.put(state.fromSubtask(), storage.parent(state.location()));
        }
        String common = point.states().isEmpty() ? null : storage.parent(point.states().get(0).location());
        List<Integer> resolved = SinkHandover.resolvedBy(config.subtask(), point.parallelism(),
                point.previousParallelism(), point.maxParallelism(), point.states());
        List<RestorePlan> plans = new ArrayList<>();
        for (int old : resolved) {
            if (old == config.subtask()) {
                continue;
            }
            WriteAheadSinkConfig former = config.forSubtask(old);
            try (WriteAheadSink<byte[], byte[]> other = new WriteAheadSink<>(former, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                guardedIo(() -> plans.add(other.restore(Optional.of(oldSnapshot(point, former,
                        directories.getOrDefault(old, common))))));
            }
        }
        handedOver = List.copyOf(plans);
        sink = new WriteAheadSink<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        if (resolved.contains(config.subtask())) {
            guardedIo(() -> lastRestore = sink.restore(Optional.of(oldSnapshot(point, config,
                    directories.getOrDefault(config.subtask(), common)))));
        } else {
            guardedIo(() -> lastRestore = sink.restoreEmpty(point.checkpointId(), point.chosen()));
        }
    }

    private RestorePoint oldSnapshot(RestorePoint point, WriteAheadSinkConfig former, String directory)
            throws IOException {
        if (directory == null) {
            throw new IOException("sink " + former.transactionalId() + ": the rescaled restore point of checkpoint "
                    + point.checkpointId() + " names no state, so its snapshot cannot be found");
        }
        return new RestorePoint(point.checkpointId(), config.storage().resolve(directory,
                former.snapshotFileName()), 0, point.chosen());
    }

    /**
     * What the latest rescaled start resolved of the old subtasks' snapshots under their transactional ids (its own
     * index's excepted, which {@link #lastRestore()} says); empty when it resolved none.
     */
    public List<RestorePlan> handedOver() {
        return handedOver;
    }

    /** What the sink decided and wrote at the latest start (restore or rollback); empty before the first. */
    public Optional<RestorePlan> lastRestore() {
        return Optional.ofNullable(lastRestore);
    }

    @Override
    public void emit(byte[] key, byte[] value) {
        guarded(() -> sink.send(key, value));
    }

    @Override
    public Sealed barrier(long checkpointId, Alignment alignment) {
        SinkState state = sink.seal(checkpointId);
        return directory -> SinkStateCodec.write(config.storage(),
                config.storage().resolve(directory, config.snapshotFileName()), state);
    }

    @Override
    public void complete(long checkpointId) {
        guarded(() -> sink.notifyComplete(checkpointId));
    }

    @Override
    public List<String> partNames() {
        return List.of(config.snapshotFileName());
    }

    @Override
    public List<String> partNames(int subtask) {
        return List.of(config.forSubtask(subtask).snapshotFileName());
    }

    @Override
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void close() {
        if (sink != null) {
            sink.close();
        }
    }

    private void guardedIo(IoAction action) throws IOException {
        try {
            action.run();
        } catch (SinkFailedException e) {
            failure = e;
            throw e;
        }
    }

    private void guarded(Runnable action) {
        try {
            action.run();
        } catch (SinkFailedException e) {
            failure = e;
            throw e;
        }
    }

    /** A sink call that may fail with an {@link IOException}. */
    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
