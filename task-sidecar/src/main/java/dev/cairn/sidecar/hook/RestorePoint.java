package dev.cairn.sidecar.hook;

/**
 * The latest completed checkpoint's state for this sidecar's subtask, read from {@code cairn.completed}.
 *
 * @param checkpointId the completed checkpoint
 * @param location the subtask's state handle location
 * @param sizeBytes the state's size
 */
public record RestorePoint(long checkpointId, String location, long sizeBytes) {}
