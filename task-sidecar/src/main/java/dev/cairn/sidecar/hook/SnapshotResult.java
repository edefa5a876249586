package dev.cairn.sidecar.hook;

/**
 * What a snapshot produced: where its state is and how large, plus the durations the worker measured
 * (zero when it did not measure them; the sidecar fills in the start delay itself).
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
 * @param location the state handle's location; {@code null} for no state
 * @param sizeBytes the state's size
 * @param syncDurationMs time spent in the synchronous part
 * @param asyncDurationMs time spent in the asynchronous part
 * @param alignmentDurationMs time spent aligning inputs
 * @param bytesPersisted bytes written during this snapshot (less than {@code sizeBytes} when incremental)
 * @param finished whether the task has finished for good (its location, if any, is its final state)
 */
public record SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
        long alignmentDurationMs, long bytesPersisted, boolean finished) {

    /** A result that is a state, not a finish. */
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

    /** Whether it names a state (a non-blank location). */
    public boolean hasState() {
        return location != null && !location.isBlank();
    }
}
