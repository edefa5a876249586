package dev.cairn.kit.sink;

/**
 * The snapshot file a write-ahead sink subtask wrote for a checkpoint: hand its location back to
 * {@link WriteAheadSink#restore} (as a {@link dev.cairn.sidecar.hook.RestorePoint}) to restore from it.
 *
 * @param location the file, as a {@code file:} URI
 * @param sizeBytes its size
 * @param records the number of uncommitted records it holds
 */
public record SinkSnapshot(String location, long sizeBytes, long records) {}
