package dev.cairn.sidecar.hook;

import dev.cairn.events.CheckpointType;

/**
 * One snapshot to take.
 *
 * @param checkpointId the checkpoint's id
 * @param timestampMs when the coordinator triggered it
 * @param type checkpoint or savepoint
 * @param storageLocation where the checkpoint's state belongs ({@code <base>/<job>/chk-<id>} or the savepoint target)
 * @param jobId the job
 * @param taskId the task this sidecar stands beside
 * @param subtaskIndex the subtask
 */
public record SnapshotRequest(long checkpointId, long timestampMs, CheckpointType type, String storageLocation,
        String jobId, String taskId, int subtaskIndex) {}
