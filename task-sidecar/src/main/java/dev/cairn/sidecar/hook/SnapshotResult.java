package dev.cairn.sidecar.hook;

/**
 * What a snapshot produced: where its state is and how large, plus the durations the worker measured
 * (zero when it did not measure them; the sidecar fills in the start delay itself).
 *
 * @param location the state handle's location
 * @param sizeBytes the state's size
 * @param syncDurationMs time spent in the synchronous part
 * @param asyncDurationMs time spent in the asynchronous part
 * @param alignmentDurationMs time spent aligning inputs
 * @param bytesPersisted bytes written during this snapshot (less than {@code sizeBytes} when incremental)
 */
public record SnapshotResult(String location, long sizeBytes, long syncDurationMs, long asyncDurationMs,
        long alignmentDurationMs, long bytesPersisted) {

    /** A result with only a location and a size. */
    public static SnapshotResult of(String location, long sizeBytes) {
        return new SnapshotResult(location, sizeBytes, 0, 0, 0, sizeBytes);
    }
}
