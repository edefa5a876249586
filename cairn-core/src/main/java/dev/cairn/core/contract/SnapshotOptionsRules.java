package dev.cairn.core.contract;

import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TriggerRequest;
import java.util.List;
import java.util.Optional;

/**
 * What every task is told with a trigger (Flink: {@code CheckpointOptions.forConfig}), from the job's
 * {@link CheckpointConfig} and a request's overrides:
 * <ul>
 *   <li>at-least-once jobs get {@code AT_LEAST_ONCE} barriers;</li>
 *   <li>savepoints are always aligned, without a timeout;</li>
 *   <li>checkpoints are aligned unless unaligned checkpoints are enabled; then they start unaligned when the
 *       aligned timeout is 0 (or {@link Long#MAX_VALUE}, Flink's "no timeout"), else they are aligned with that
 *       timeout (after which a task may go unaligned).</li>
 * </ul>
 * Also Flink's default of {@code force}: a savepoint is forced unless unaligned checkpoints are enabled
 * ({@code CheckpointProperties.forSavepoint(!unalignedEnabled, ...)}), a checkpoint is not.
 */
public final class SnapshotOptionsRules {

    /** Flink's {@code NO_ALIGNED_CHECKPOINT_TIME_OUT}: like 0, unaligned from the start. */
    static final long NO_ALIGNED_TIMEOUT = Long.MAX_VALUE;

    private SnapshotOptionsRules() {
    }

    /** The options of a periodic checkpoint of a job with this config. */
    public static SnapshotOptions periodic(CheckpointConfig config) {
        return resolve(config, CheckpointType.CHECKPOINT, PostCheckpointAction.NONE, null);
    }

    /** The options of a request, its overrides over the job's config; call {@link #problem} first. */
    public static SnapshotOptions of(CheckpointConfig config, TriggerRequest request) {
        return resolve(config, request.getType(), postAction(request), request.getOptions());
    }

    /**
     * The options a queued request runs with, from the job's config as it is when the request runs (Flink builds
     * its CheckpointOptions when it triggers): periodic checkpoints take the config's, manual requests their
     * overrides over it.
     */
    public static SnapshotOptions of(CheckpointConfig config, QueuedRequest request) {
        PostCheckpointAction action = request.getPostCheckpointAction() == null ? PostCheckpointAction.NONE
                : request.getPostCheckpointAction();
        return resolve(config, request.getType(), action, request.getRequestedOptions());
    }

    /** The job's checkpoint type: as configured, FULL when it says nothing (Flink: incremental off by default). */
    public static BackupType backupType(CheckpointConfig config) {
        return pick(config.getBackupType(), BackupType.FULL);
    }

    /** The job's savepoint format: as configured, CANONICAL when it says nothing (Flink's default). */
    public static SavepointFormat savepointFormat(CheckpointConfig config) {
        return pick(config.getSavepointFormat(), SavepointFormat.CANONICAL);
    }

    /** What follows the request's savepoint: NONE unless it asks for a stop. */
    public static PostCheckpointAction postAction(TriggerRequest request) {
        return request.getPostCheckpointAction() == null ? PostCheckpointAction.NONE
                : request.getPostCheckpointAction();
    }

    /** Whether the request is forced: as it asks, else Flink's default. */
    public static boolean forced(CheckpointConfig config, TriggerRequest request) {
        if (request.getForce() != null) {
            return request.getForce();
        }
        return request.getType() == CheckpointType.SAVEPOINT && !config.getUnalignedEnabled();
    }

    /** Why the request's options cannot be honoured (see {@link TriggerRequests#optionProblems}), or empty. */
    public static Optional<String> problem(TriggerRequest request) {
        List<SpecProblem> problems = TriggerRequests.optionProblems(request);
        return problems.isEmpty() ? Optional.empty() : Optional.of(SpecProblem.describe(problems, path -> path));
    }

    private static SnapshotOptions resolve(CheckpointConfig config, CheckpointType type, PostCheckpointAction action,
            RequestedOptions overrides) {
        boolean savepoint = type == CheckpointType.SAVEPOINT;
        BackupType backup = pick(overrides == null ? null : overrides.getBackupType(), backupType(config));
        boolean unaligned = pick(overrides == null ? null : overrides.getUnalignedEnabled(),
                config.getUnalignedEnabled());
        long alignedTimeout = pick(overrides == null ? null : overrides.getAlignedTimeoutMs(),
                config.getAlignedTimeoutMs());
        AlignmentType alignment;
        long timeout = -1;
        if (!config.getExactlyOnce()) {
            alignment = AlignmentType.AT_LEAST_ONCE;
        } else if (savepoint || !unaligned) {
            alignment = AlignmentType.ALIGNED;
        } else if (alignedTimeout == 0 || alignedTimeout == NO_ALIGNED_TIMEOUT) {
            alignment = AlignmentType.UNALIGNED;
        } else {
            alignment = AlignmentType.ALIGNED;
            timeout = alignedTimeout;
        }
        return SnapshotOptions.newBuilder()
                .setBackupType(savepoint ? BackupType.FULL : backup)
                .setSavepointFormat(pick(overrides == null ? null : overrides.getSavepointFormat(),
                        savepointFormat(config)))
                .setPostCheckpointAction(savepoint ? action : PostCheckpointAction.NONE)
                .setAlignment(alignment)
                .setAlignedTimeoutMs(timeout)
                .build();
    }

    private static <T> T pick(T override, T configured) {
        return override != null ? override : configured;
    }
}
