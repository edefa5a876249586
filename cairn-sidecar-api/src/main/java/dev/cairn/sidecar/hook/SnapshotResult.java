package dev.cairn.sidecar.hook;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a snapshot produced: where its state is and how large, the shared objects it is made of besides (an
 * incremental snapshot; none for a self-contained one), plus the durations the worker measured (zero when it did not
 * measure them; the sidecar fills in the start delay itself).
 *
 * <p>Two special answers:
 * <ul>
 *   <li>{@link #none()}: no state (a participant with nothing to keep; a task's snapshot without a location
 *       is declined);</li>
 *   <li>{@link #finishedWith} / {@link #finishedWithoutState()}: a task whose input is bounded has finished.
 *       Instead of an acknowledgement the sidecar publishes {@code TaskFinished} with this final state, and
 *       takes no further snapshot (the coordinator counts the subtask as acknowledged from then on). The same
 *       as {@code Sidecar#finish}, but answered to a snapshot.</li>
 * </ul>
 *
 * <p>Shared objects ({@link #withShared}) are for a task's state only: the coordinator counts the references to
 * them and tells the subtask to delete each once no checkpoint refers to it. A participant's result that names any
 * is declined, and so is a result whose shared objects are malformed (see {@link SharedObject}).
 *
 * <p>Key groups ({@link #withKeyGroups}) and an operator state mode ({@link #withOperatorStateMode}) say how a
 * task's state is handed out when the job restores with another parallelism; a task whose snapshots declare neither
 * cannot be rescaled (the coordinator refuses the rescale, saying why). They are for a task's state only: a
 * participant's result that declares either is declined, and so is a declaration without a state, and a key-group
 * range that holds no key group (its end before its start).
 *
 * @param location the state handle's location; {@code null} for no state
 * @param sizeBytes the state's size: for an incremental snapshot, its own object and the shared objects it wrote
 *     (not those it reuses)
 * @param syncDurationMs time spent in the synchronous part
 * @param asyncDurationMs time spent in the asynchronous part
 * @param alignmentDurationMs time spent aligning inputs
 * @param bytesPersisted bytes written during this snapshot (less than {@code sizeBytes} when incremental)
 * @param finished whether the task has finished for good (its location, if any, is its final state)
 * @param shared the shared objects the state is made of besides its own object; empty for a self-contained state
 *     ({@code null} reads as empty)
 * @param keyGroups the key groups of the keyed state it holds ({@link #withKeyGroups}); {@code null}: not keyed
 * @param operatorStateMode how its state is handed out on a rescale when it is not keyed
 *     ({@link #withOperatorStateMode}); {@code null} with {@code null} key groups: the task cannot be rescaled
 */
public record SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
        long alignmentDurationMs, long bytesPersisted, boolean finished, List<SharedObject> shared,
        KeyGroupRange keyGroups, OperatorStateMode operatorStateMode) {

    /** Keeps an unmodifiable copy of {@code shared}, null entries included, so that the sidecar can name them. */
    public SnapshotResult {
        shared = shared == null || shared.isEmpty() ? List.of()
                : Collections.unmodifiableList(new ArrayList<>(shared));
    }

    /** A result that declares neither key groups nor an operator state mode. */
    public SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
            long alignmentDurationMs, long bytesPersisted, boolean finished, List<SharedObject> shared) {
        this(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs, bytesPersisted, finished,
                shared, null, null);
    }

    /** A result without shared objects. */
    public SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
            long alignmentDurationMs, long bytesPersisted, boolean finished) {
        this(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs, bytesPersisted, finished,
                List.of());
    }

    /** A result that is a state, not a finish, without shared objects. */
    public SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
            long alignmentDurationMs, long bytesPersisted) {
        this(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs, bytesPersisted, false);
    }

    /** A result with only a location and a size. */
    public static SnapshotResult of(String location, long sizeBytes) {
        return new SnapshotResult(location, sizeBytes, 0, 0, 0, sizeBytes);
    }

    /** No state at all (participants only). */
    public static SnapshotResult none() {
        return new SnapshotResult(null, 0, 0, 0, 0, 0);
    }

    /** The task finished; {@code location} and {@code sizeBytes} are its final state. */
    public static SnapshotResult finishedWith(String location, long sizeBytes) {
        return new SnapshotResult(location, sizeBytes, 0, 0, 0, sizeBytes, true);
    }

    /** The task finished with no final state. */
    public static SnapshotResult finishedWithoutState() {
        return new SnapshotResult(null, 0, 0, 0, 0, 0, true);
    }

    /** This result made of {@code objects} besides its own object (replacing any it named). */
    public SnapshotResult withShared(List<SharedObject> objects) {
        return new SnapshotResult(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs,
                bytesPersisted, finished, objects, keyGroups, operatorStateMode);
    }

    /**
     * This result holding the keyed state of {@code range} (Flink: a keyed state handle's key groups): on a restore
     * with another parallelism it goes to every subtask whose key groups overlap it.
     */
    public SnapshotResult withKeyGroups(KeyGroupRange range) {
        return new SnapshotResult(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs,
                bytesPersisted, finished, shared, range, operatorStateMode);
    }

    /** This result's state, not keyed, handed out by {@code mode} on a restore with another parallelism. */
    public SnapshotResult withOperatorStateMode(OperatorStateMode mode) {
        return new SnapshotResult(location, sizeBytes, syncDurationMs, asyncDurationMs, alignmentDurationMs,
                bytesPersisted, finished, shared, keyGroups, mode);
    }

    /** Whether it names a state (a non-blank location). */
    public boolean hasState() {
        return location != null && !location.isBlank();
    }
}
