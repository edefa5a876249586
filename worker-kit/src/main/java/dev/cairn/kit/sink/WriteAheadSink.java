package dev.cairn.kit.sink;

import dev.cairn.sidecar.hook.RestorePoint;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exactly-once sink subtask that writes to a Kafka topic: a write-ahead two-phase commit (Flink's
 * {@code GenericWriteAheadSink}), since Kafka's client cannot resume a prepared transaction after a crash.
 *
 * <ol>
 *   <li>{@link #restore} is called once, first: it fences earlier incarnations of the subtask and commits what
 *       the restored snapshot holds that the output lacks (see {@link RestorePlan}). When the output is already
 *       ahead of the restored checkpoint (its commit marker is newer), the sink goes back to that checkpoint only
 *       if a user chose it ({@link RestorePoint#chosen()}), and says which epochs will be written again; otherwise
 *       the restore point is stale and the sink refuses to restore, writing nothing;</li>
 *   <li>{@link #send} buffers a record in the open epoch (records are serialized at once, nothing is
 *       written to Kafka);</li>
 *   <li>{@link #snapshot} (when barrier N reached the sink) closes the epoch as epoch N and writes every uncommitted
 *       epoch to a file in the checkpoint's storage location;</li>
 *   <li>{@link #notifyComplete} writes every epoch up to N to the output topic in one transaction, with the commit
 *       marker N on {@code <output>.commits}, and forgets them;</li>
 *   <li>{@link #notifyAborted} keeps the epoch: the next completed checkpoint commits it.</li>
 * </ol>
 *
 * <p>Records become visible to {@code read_committed} readers only when a checkpoint that covers them completes.
 * When a newer incarnation has taken over (the same sink id and subtask), this one's next commit fails and it stops:
 * every later call throws {@link SinkFailedException} with {@link SinkFailedException#fenced()} set. Any other
 * failed commit stops it too; the incarnation restored from the latest completed checkpoint commits the pending
 * records, so none is lost or written twice.
 *
 * <p>The epochs are only as exact as the snapshots that close them: exactly-once needs the task to call
 * {@link #snapshot} when barrier N arrived on every input with the records after it held back (aligned). Under
 * at-least-once alignment records that passed barrier N early land in epoch N and are replayed after a restore.
 *
 * <p>Thread-safe: a worker's processing thread may {@link #send} while the sidecar's threads snapshot and notify.
 * Snapshots go to the config's {@link WriteAheadSinkConfig#storage() storage} (local files or S3). A subtask restores
 * only a snapshot of its own sink id and index; after a rescale, another subtask resolves a snapshot of an index
 * that is gone with a sink of that index ({@link SinkHandover}), and a new index starts with
 * {@link #restoreEmpty}.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class WriteAheadSink<K, V> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadSink.class);

    private enum Phase { NEW, RUNNING, FAILED, CLOSED }

    private final WriteAheadSinkConfig config;
    private final Serializer<K> keys;
    private final Serializer<V> values;
    private final EpochCommitter committer;
    private final PendingEpochs pending = new PendingEpochs();
    private final Object commits = new Object();
    private volatile Phase phase = Phase.NEW;
    private volatile SinkFailedException failure;

    /** A sink subtask that commits to Kafka as {@code config} says. */
    public WriteAheadSink(WriteAheadSinkConfig config, Serializer<K> keys, Serializer<V> values) {
        this(config, keys, values, new KafkaEpochCommitter(config));
    }

    WriteAheadSink(WriteAheadSinkConfig config, Serializer<K> keys, Serializer<V> values, EpochCommitter committer) {
        this.config = Objects.requireNonNull(config, "config");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.values = Objects.requireNonNull(values, "values");
        this.committer = Objects.requireNonNull(committer, "committer");
    }

    /**
     * Takes over the subtask's output and restores: reads the snapshot file (a bad one throws before Kafka is
     * touched), fences earlier incarnations, reads the commit marker back and carries out the {@link RestorePlan}.
     *
     * @param from the snapshot to restore ({@link SinkSnapshot#location()} as the location), empty for a fresh start
     * @return what was decided and written
     * @throws IOException when the snapshot file cannot be read, is corrupt, or belongs to another sink subtask
     * @throws SinkFailedException when Kafka cannot be reached, the restore's commit fails, or the output is ahead
     *     of a restore point nobody chose ({@link RestorePlan.Verdict#REFUSED_OUTPUT_AHEAD}: nothing is written,
     *     and the sink stops)
     */
    public RestorePlan restore(Optional<RestorePoint> from) throws IOException {
        requireNew();
        Optional<SinkState> state = from.isPresent() ? Optional.of(readState(from.get())) : Optional.empty();
        return restore(state, from.map(RestorePoint::chosen).orElse(false));
    }

    /**
     * Takes over the subtask's output as restored from checkpoint {@code checkpointId} with nothing pending: a sink
     * subtask that a rescale added (it has no snapshot of that checkpoint). A marker of an earlier run, older than
     * the checkpoint (the subtask existed before a rescale down), is set to it; a newer one is compared as by
     * {@link #restore(Optional)}.
     *
     * @throws SinkFailedException as {@link #restore(Optional)}
     */
    public RestorePlan restoreEmpty(long checkpointId, boolean chosen) {
        requireNew();
        return restore(Optional.of(new SinkState(config.sinkId(), config.subtask(), checkpointId, List.of())),
                chosen);
    }

    private void requireNew() {
        if (phase != Phase.NEW) {
            throw new IllegalStateException("sink " + config.transactionalId() + " restores once, before anything "
                    + "else; it is " + phase);
        }
    }

    private RestorePlan restore(Optional<SinkState> state, boolean chosen) {
        OptionalLong marker = guarded(committer::initialise);
        RestorePlan plan = state.map(s -> RestorePlan.restore(s, marker, chosen))
                .orElseGet(() -> RestorePlan.fresh(marker));
        if (plan.refused()) {
            guarded(() -> {
                throw new SinkFailedException(refusal(plan), false, null);
            });
        }
        if (plan.writes()) {
            guarded(() -> {
                committer.commit(plan.toCommit(), plan.markerAfter());
                return null;
            });
        }
        synchronized (pending) {
            state.ifPresent(s -> pending.restoredTo(s.checkpointId()));
        }
        logRestore(plan);
        phase = Phase.RUNNING;
        return plan;
    }

    /** Buffers a record in the open epoch; it is written when a checkpoint after the next snapshot completes. */
    public void send(K key, V value) {
        ensureRunning();
        SinkRecord record = new SinkRecord(keys.serialize(config.outputTopic(), key),
                values.serialize(config.outputTopic(), value));
        synchronized (pending) {
            pending.add(record);
        }
    }

    /**
     * The snapshot of checkpoint {@code checkpointId}: closes the open epoch and writes every uncommitted epoch to
     * {@code <storageLocation>/sink-<sinkId>-<subtask>.state}.
     *
     * @param storageLocation the checkpoint's storage location in the sink's {@link WriteAheadSinkConfig#storage()}
     *     (a {@code file:} URI, a local path or an {@code s3://} location)
     * @throws IllegalArgumentException when a snapshot of this or a later checkpoint was taken already
     * @throws IOException when the file cannot be written or the storage does not keep such locations
     */
    public SinkSnapshot snapshot(long checkpointId, String storageLocation) throws IOException {
        String location = config.storage().resolve(storageLocation, config.snapshotFileName());
        SinkState state = seal(checkpointId);
        long size = SinkStateCodec.write(config.storage(), location, state);
        LOG.debug("Sink {}: snapshot of checkpoint {} holds {} records in {} epochs ({} bytes) in {}",
                config.transactionalId(), checkpointId, state.recordCount(), state.pending().size(), size, location);
        return new SinkSnapshot(location, size, state.recordCount());
    }

    /**
     * The first half of {@link #snapshot}, for a task that learns the storage location later: closes the open epoch
     * as epoch {@code checkpointId} and answers the state the snapshot file holds (every uncommitted epoch), to be
     * written with {@link SinkStateCodec#write} as {@link WriteAheadSinkConfig#snapshotFileName()}.
     *
     * @throws IllegalArgumentException when a snapshot of this or a later checkpoint was taken already
     */
    public SinkState seal(long checkpointId) {
        ensureRunning();
        List<Epoch> epochs;
        synchronized (pending) {
            epochs = pending.seal(checkpointId);
        }
        return new SinkState(config.sinkId(), config.subtask(), checkpointId, epochs);
    }

    /**
     * Checkpoint {@code checkpointId} completed: writes every epoch up to it to the output, with the commit marker,
     * in one transaction. A completion of a checkpoint already committed (or restored) does nothing.
     *
     * @throws SinkFailedException when the commit fails; the sink stops
     */
    public void notifyComplete(long checkpointId) {
        ensureRunning();
        synchronized (commits) {
            List<Epoch> batch;
            synchronized (pending) {
                if (pending.isCommitted(checkpointId)) {
                    return;
                }
                batch = pending.committable(checkpointId);
            }
            guarded(() -> {
                committer.commit(batch, checkpointId);
                return null;
            });
            synchronized (pending) {
                pending.committed(checkpointId);
            }
            LOG.debug("Sink {}: committed {} epochs up to checkpoint {}", config.transactionalId(), batch.size(),
                    checkpointId);
        }
    }

    /** Checkpoint {@code checkpointId} was aborted: its epoch stays and is committed with the next completed one. */
    public void notifyAborted(long checkpointId) {
        LOG.debug("Sink {}: checkpoint {} aborted; its records wait for the next completed checkpoint",
                config.transactionalId(), checkpointId);
    }

    /** Stops the sink; records not committed stay in the snapshots (those of the open epoch are dropped). */
    @Override
    public void close() {
        if (phase != Phase.CLOSED) {
            phase = Phase.CLOSED;
            committer.close();
        }
    }

    private <T> T guarded(Supplier<T> action) {
        try {
            return action.get();
        } catch (SinkFailedException e) {
            failure = e;
            phase = Phase.FAILED;
            committer.close();
            LOG.error("Sink {} stopped: {}", config.transactionalId(), e.getMessage());
            throw e;
        }
    }

    private void ensureRunning() {
        switch (phase) {
            case RUNNING -> {
                return;
            }
            case NEW -> throw new IllegalStateException("sink " + config.transactionalId()
                    + " has not been restored yet: call restore first (with an empty restore point for a fresh "
                    + "start)");
            case FAILED -> throw new SinkFailedException(failure.getMessage(), failure.fenced(), failure);
            default -> throw new IllegalStateException("sink " + config.transactionalId() + " is closed");
        }
    }

    private SinkState readState(RestorePoint point) throws IOException {
        SinkState state = SinkStateCodec.read(config.storage(), point.location());
        if (!state.sinkId().equals(config.sinkId()) || state.subtask() != config.subtask()) {
            throw new IOException("the snapshot " + point.location() + " belongs to sink " + state.sinkId()
                    + " subtask " + state.subtask() + ", not to sink " + config.sinkId() + " subtask "
                    + config.subtask() + " (a sink restores only its own subtask's snapshot)");
        }
        if (state.checkpointId() != point.checkpointId()) {
            LOG.info("Sink {}: the snapshot in {} is of checkpoint {}, restored as checkpoint {}",
                    config.transactionalId(), point.location(), state.checkpointId(), point.checkpointId());
        }
        return state;
    }

    private String refusal(RestorePlan plan) {
        return "sink " + config.transactionalId() + " refuses to restore checkpoint " + plan.restored()
                + ": its output already holds the epochs up to checkpoint " + plan.markerBefore() + " (the commit "
                + "marker on " + config.outputTopic() + ".commits), so restoring would write those after checkpoint "
                + plan.restored() + " a second time. Nobody chose checkpoint " + plan.restored() + ", so the job's "
                + "restore point is stale (read during a leader change, say): restart the sink later and it restores "
                + "the job's latest point. To go back on purpose, restore the job from that checkpoint or savepoint "
                + "(a RestoreJob request); the epochs after it are then written again. Nothing was written";
    }

    private void logRestore(RestorePlan plan) {
        long records = plan.toCommit().stream().mapToLong(epoch -> epoch.records().size()).sum();
        switch (plan.verdict()) {
            case FRESH -> LOG.info("Sink {}: fresh start{}", config.transactionalId(), plan.markerBefore() >= 0
                    ? " (the commit marker " + plan.markerBefore() + " of an earlier run is reset to -1)" : "");
            case COMMIT_PENDING -> LOG.info("Sink {}: restored checkpoint {}; the output had up to checkpoint {}, "
                    + "so {} records of {} epochs were committed now", config.transactionalId(),
                    plan.markerAfter(), plan.markerBefore(), records, plan.toCommit().size());
            case ALREADY_COMMITTED -> LOG.info("Sink {}: restored checkpoint {}, already committed: nothing to write",
                    config.transactionalId(), plan.markerAfter());
            default -> LOG.warn("Sink {}: restored the chosen checkpoint {}, but the output already holds the epochs "
                    + "up to checkpoint {} (commit marker {}): the epochs after checkpoint {} up to {} are replayed "
                    + "and will be written again, so their records appear twice (nothing can be taken back from a "
                    + "topic); the marker is set back to {}", config.transactionalId(), plan.restored(),
                    plan.markerBefore(), plan.markerBefore(), plan.restored(), plan.markerBefore(),
                    plan.markerAfter());
        }
    }
}
