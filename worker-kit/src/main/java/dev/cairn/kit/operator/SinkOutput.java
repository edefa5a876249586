package dev.cairn.kit.operator;

import dev.cairn.kit.align.Alignment;
import dev.cairn.kit.sink.RestorePlan;
import dev.cairn.kit.sink.SinkFailedException;
import dev.cairn.kit.sink.SinkState;
import dev.cairn.kit.sink.SinkStateCodec;
import dev.cairn.kit.sink.WriteAheadSink;
import dev.cairn.kit.sink.WriteAheadSinkConfig;
import dev.cairn.sidecar.hook.RestorePoint;
import java.io.IOException;
import java.util.List;
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
