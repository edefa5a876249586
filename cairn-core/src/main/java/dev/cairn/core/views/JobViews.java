package dev.cairn.core.views;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.LatestRestore;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.contract.SnapshotOptionsRules;
import dev.cairn.core.events.CairnRecords;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/** Pure functions from the stores' values to the REST API's {@link ApiViews}. */
public final class JobViews {

    static {
        CairnRecords.trustGeneratedClasses();
    }

    private JobViews() {
    }

    /** {@code GET /jobs/{jobId}}: the job's state and its registered spec. */
    public static ApiViews.Job job(JobState job, JobSpec spec) {
        List<ApiViews.Task> tasks = spec.getTasks().stream()
                .map(t -> new ApiViews.Task(t.getTaskId(), t.getParallelism(), JobSpecs.maxParallelism(t),
                        t.getTriggered(), t.getAcknowledges(), t.getNotified()))
                .toList();
        ApiViews.Config config = config(spec.getConfig());
        List<ApiViews.QueuedRequest> queue = job.getQueue().stream().map(q -> queued(q, job.getConfig())).toList();
        return new ApiViews.Job(job.getJobId(), job.getStatus().name(), spec.getTimestampMs(),
                new ApiViews.Spec(tasks, config, List.copyOf(spec.getParticipants()),
                        List.copyOf(spec.getMasterHooks())),
                new ApiViews.Schedule(job.getNextCheckpointId(), idOrNull(job.getLatestCompletedId()),
                        job.getNextPeriodicDueMs(), job.getLastCompletionMs(), job.getPending().size(),
                        job.getConsecutiveFailures(), queue));
    }

    /**
     * A checkpoint configuration as {@code GET /jobs/{jobId}/checkpoints/config} and {@code GET /jobs/{jobId}} show
     * it. Cairn checkpoints after tasks finish, always (FLIP-147, Flink's default).
     */
    public static ApiViews.Config config(CheckpointConfig c) {
        return new ApiViews.Config(new ApiViews.Pacing(c.getExactlyOnce() ? "exactly_once" : "at_least_once",
                c.getIntervalMs(), c.getTimeoutMs(), c.getMinPauseMs(), c.getMaxConcurrent(), c.getTolerableFailures()),
                c.getRetained(), c.getStorageBaseLocation(), new ApiViews.SnapshotSettings(c.getUnalignedEnabled(),
                        c.getAlignedTimeoutMs(), SnapshotOptionsRules.backupType(c).name(),
                        SnapshotOptionsRules.savepointFormat(c).name(), true));
    }

    /** {@code GET /jobs/{jobId}/checkpoints}: pending and history newest first, like Flink's history. */
    public static ApiViews.CheckpointStats checkpoints(JobState job, List<CheckpointSummary> ended,
            LongFunction<CheckpointProgress> progress) {
        List<ApiViews.Checkpoint> pending = new ArrayList<>(job.getPending().stream()
                .map(p -> pending(p, progress.apply(p.getCheckpointId())))
                .toList());
        Collections.reverse(pending);
        List<ApiViews.Checkpoint> history = new ArrayList<>(ended.stream().map(JobViews::ended).toList());
        Collections.reverse(history);
        ApiViews.Latest latest = new ApiViews.Latest(
                newest(ended, s -> completed(s) && s.getType() == CheckpointType.CHECKPOINT),
                newest(ended, s -> completed(s) && s.getType() == CheckpointType.SAVEPOINT),
                newest(ended, s -> s.getStatus() == CheckpointStatus.FAILED), restored(job.getLatestRestore()));
        return new ApiViews.CheckpointStats(ApiViews.Counts.of(job.getCounts()),
                summary(CheckpointStatsSummary.of(job, ended)), latest, pending, history);
    }

    /** The point the job was last restored from, {@code null} when it never was. */
    static ApiViews.Restored restored(LatestRestore restore) {
        return restore == null ? null : new ApiViews.Restored(restore.getCheckpointId(),
                restore.getRestoreTimestampMs(), restore.getType() == CheckpointType.SAVEPOINT,
                restore.getExternalPath());
    }

    /** The summary figures of {@link CheckpointStatsSummary}. */
    static ApiViews.Summary summary(CheckpointStatsSummary s) {
        return new ApiViews.Summary(s.completedInHistory(), figures(s.endToEndDurationMs()),
                figures(s.stateSizeBytes()),
                new ApiViews.AllTime(totals(s.allTimeEndToEndDurationMs()), totals(s.allTimeStateSizeBytes())));
    }

    /**
     * A pending checkpoint, status IN_PROGRESS, with its options, its participants (in spec order; those that
     * acknowledged with their state) and whether its tasks are triggered yet. Subtasks that finished before the
     * trigger count among its subtasks and as acknowledged from the start, as in Flink's checkpoint statistics (and
     * as the history counts them once the checkpoint ended).
     */
    public static ApiViews.Checkpoint pending(PendingCheckpoint p, CheckpointProgress progress) {
        Long latestAck = progress.latestAckTimestampMs();
        Long duration = latestAck == null ? null : Math.max(0, latestAck - p.getTriggerTimestampMs());
        int finished = p.getFinishedSubtasks();
        return new ApiViews.Checkpoint(
                new ApiViews.Identity(p.getCheckpointId(), "IN_PROGRESS", p.getType().name(), p.getPeriodic()),
                new ApiViews.Timing(p.getTriggerTimestampMs(), latestAck, null, duration),
                new ApiViews.Acknowledgements(progress.stateSizeBytes(), p.getAcksExpected() + finished,
                        progress.acksReceived() + finished),
                new ApiViews.Outcome(p.getStorageLocation(), p.getRequestId(), p.getTimeoutAtMs(), null, null),
                options(p.getType(), p.getOptions()),
                new ApiViews.Progress(PendingCheckpoints.tasksTriggered(p),
                        participants(p.getParticipants(), p.getParticipantStates()), finished,
                        p.getFinishedStateBytes()));
    }

    /** An ended checkpoint of the history, status COMPLETED or FAILED. */
    public static ApiViews.Checkpoint ended(CheckpointSummary s) {
        return new ApiViews.Checkpoint(
                new ApiViews.Identity(s.getCheckpointId(), s.getStatus().name(), s.getType().name(), s.getPeriodic()),
                new ApiViews.Timing(s.getTriggerTimestampMs(), s.getLatestAckTimestampMs(), s.getEndTimestampMs(),
                        s.getEndToEndDurationMs()),
                new ApiViews.Acknowledgements(s.getStateSizeBytes(), s.getAcksExpected(), s.getAcksReceived()),
                new ApiViews.Outcome(s.getStorageLocation(), s.getRequestId(), null,
                        s.getFailureReason() == null ? null : s.getFailureReason().name(), s.getFailureMessage()),
                options(s.getType(), s.getOptions()), ApiViews.Progress.ENDED);
    }

    /**
     * The options a checkpoint of this type was triggered (or a request queued) with; {@code null} (a checkpoint the
     * history recorded without its pending checkpoint) stands for the defaults. The backup type is shown for
     * checkpoints only, the savepoint format for savepoints only.
     */
    public static ApiViews.Options options(CheckpointType type, SnapshotOptions options) {
        SnapshotOptions o = options != null ? options : SnapshotOptions.newBuilder().build();
        boolean savepoint = type == CheckpointType.SAVEPOINT;
        return new ApiViews.Options(savepoint ? null : o.getBackupType().name(),
                savepoint ? o.getSavepointFormat().name() : null, o.getPostCheckpointAction().name(),
                o.getAlignment().name(), o.getAlignedTimeoutMs() < 0 ? null : o.getAlignedTimeoutMs());
    }

    /** The participants in spec order, acknowledged when they have a state (also a null one) among {@code states}. */
    static List<ApiViews.Participant> participants(List<String> names, List<ParticipantState> states) {
        Map<String, ParticipantState> byName = new LinkedHashMap<>();
        states.forEach(state -> byName.put(state.getParticipant(), state));
        List<ApiViews.Participant> participants = new ArrayList<>();
        for (String name : names) {
            ParticipantState state = byName.remove(name);
            participants.add(state == null ? new ApiViews.Participant(name, false, null, null) : participant(state));
        }
        byName.values().forEach(state -> participants.add(participant(state)));
        return participants;
    }

    private static ApiViews.Participant participant(ParticipantState state) {
        return state.getState() == null ? new ApiViews.Participant(state.getParticipant(), true, null, null)
                : new ApiViews.Participant(state.getParticipant(), true, state.getState().getLocation(),
                        state.getState().getSizeBytes());
    }

    /**
     * One checkpoint with its per-subtask stats, grouped by the spec's acknowledging tasks in spec order
     * (acks of a task no longer in the spec follow), and the subtasks that have not acknowledged.
     */
    public static ApiViews.CheckpointDetail detail(ApiViews.Checkpoint checkpoint, JobSpec spec,
            List<CheckpointAcknowledged> acks, List<ApiViews.SubtaskRef> missing) {
        Map<String, List<CheckpointAcknowledged>> byTask = new LinkedHashMap<>();
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (TaskVertex vertex : spec.getTasks()) {
            if (vertex.getAcknowledges()) {
                byTask.put(vertex.getTaskId(), new ArrayList<>());
                parallelism.put(vertex.getTaskId(), vertex.getParallelism());
            }
        }
        acks.forEach(ack -> byTask.computeIfAbsent(ack.getTaskId(), id -> new ArrayList<>()).add(ack));
        List<ApiViews.TaskStats> tasks = new ArrayList<>();
        byTask.forEach((taskId, taskAcks) -> tasks.add(taskStats(checkpoint.timing().triggerTimestamp(), taskId,
                parallelism.getOrDefault(taskId, taskAcks.size()), taskAcks)));
        return new ApiViews.CheckpointDetail(checkpoint, tasks, missing);
    }

    /**
     * The subtasks the spec expects to acknowledge (acknowledging tasks times their parallelism) that have
     * no ack among {@code acks}, in spec order; attempt ids are left {@code null} for the caller to fill in.
     */
    public static List<ApiViews.SubtaskRef> unacknowledged(JobSpec spec, List<CheckpointAcknowledged> acks) {
        Set<String> acked = new HashSet<>();
        acks.forEach(ack -> acked.add(subtaskKey(ack.getTaskId(), ack.getSubtaskIndex())));
        List<ApiViews.SubtaskRef> missing = new ArrayList<>();
        for (TaskVertex vertex : spec.getTasks()) {
            if (!vertex.getAcknowledges()) {
                continue;
            }
            for (int index = 0; index < vertex.getParallelism(); index++) {
                if (!acked.contains(subtaskKey(vertex.getTaskId(), index))) {
                    missing.add(new ApiViews.SubtaskRef(vertex.getTaskId(), index, null));
                }
            }
        }
        return missing;
    }

    /**
     * The newest retained checkpoint, empty when none completed yet. Its subtask states are its accepted acks
     * (kept while it is the latest completed checkpoint), or those a version 1 completion listed itself.
     */
    public static Optional<ApiViews.Restore> latestCompleted(RetainedCheckpoints retained,
            BiFunction<String, Long, List<CheckpointAcknowledged>> acksOf) {
        List<CheckpointCompleted> checkpoints = retained.getCheckpoints();
        if (checkpoints.isEmpty()) {
            return Optional.empty();
        }
        CheckpointCompleted c = checkpoints.get(checkpoints.size() - 1);
        List<ApiViews.SubtaskState> states = c.getSubtaskCount() < 0
                ? c.getSubtaskStates().stream()
                        .map(s -> new ApiViews.SubtaskState(s.getTaskId(), s.getSubtaskIndex(), s.getAttemptId(),
                                s.getHandle().getLocation(), s.getHandle().getSizeBytes()))
                        .toList()
                : acksOf.apply(c.getJobId(), c.getCheckpointId()).stream()
                        .map(a -> new ApiViews.SubtaskState(a.getTaskId(), a.getSubtaskIndex(), a.getAttemptId(),
                                a.getStateHandle().getLocation(), a.getStateHandle().getSizeBytes()))
                        .toList();
        return Optional.of(new ApiViews.Restore(new ApiViews.Completed(c.getCheckpointId(), c.getType().name(),
                c.getTriggerTimestampMs(), c.getCompletionTimestampMs(), c.getTotalSizeBytes(), c.getStorageLocation()),
                idOrNull(c.getLastSubsumedId()), checkpoints.size(), states,
                participants(List.of(), c.getParticipantStates()), options(c.getType(), c.getOptions())));
    }

    private static ApiViews.TaskStats taskStats(long triggerTimestamp, String taskId, int numSubtasks,
            List<CheckpointAcknowledged> acks) {
        List<ApiViews.SubtaskStats> subtasks = acks.stream().map(ack -> subtask(triggerTimestamp, ack)).toList();
        Long latestAck = acks.stream().map(CheckpointAcknowledged::getTimestampMs).max(Long::compare).orElse(null);
        long size = acks.stream().mapToLong(ack -> ack.getStateHandle().getSizeBytes()).sum();
        return new ApiViews.TaskStats(taskId, numSubtasks, acks.size(), latestAck, size, subtasks);
    }

    private static ApiViews.SubtaskStats subtask(long triggerTimestamp, CheckpointAcknowledged ack) {
        SubtaskMetrics m = ack.getMetrics();
        return new ApiViews.SubtaskStats(ack.getSubtaskIndex(), ack.getAttemptId(), "COMPLETED", ack.getTimestampMs(),
                Math.max(0, ack.getTimestampMs() - triggerTimestamp), new ApiViews.SubtaskSnapshot(
                        ack.getStateHandle().getSizeBytes(), ack.getStateHandle().getLocation(),
                        new ApiViews.SyncAsync(m.getSyncDurationMs(), m.getAsyncDurationMs()),
                        new ApiViews.Alignment(m.getAlignmentDurationMs()), m.getStartDelayMs(),
                        m.getBytesPersisted()));
    }

    /** A queued request, with the options it would run with under the job's config as it is now. */
    private static ApiViews.QueuedRequest queued(QueuedRequest q, CheckpointConfig config) {
        return new ApiViews.QueuedRequest(q.getRequestId(), q.getType().name(), q.getForce(), q.getPeriodic(),
                q.getTargetLocation(), q.getTimestampMs(), options(q.getType(), SnapshotOptionsRules.of(config, q)));
    }

    private static ApiViews.Checkpoint newest(List<CheckpointSummary> history, Predicate<CheckpointSummary> matching) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (matching.test(history.get(i))) {
                return ended(history.get(i));
            }
        }
        return null;
    }

    private static boolean completed(CheckpointSummary summary) {
        return summary.getStatus() == CheckpointStatus.COMPLETED;
    }

    private static ApiViews.Figures figures(CheckpointStatsSummary.Figures f) {
        return new ApiViews.Figures(f.count(), f.min(), f.avg(), f.max(), f.p50(), f.p90(), f.p95(), f.p99(),
                f.p999());
    }

    private static ApiViews.Totals totals(CheckpointStatsSummary.AllTime a) {
        return new ApiViews.Totals(a.count(), a.min(), a.avg(), a.max());
    }

    private static Long idOrNull(long id) {
        return id < 0 ? null : id;
    }

    private static String subtaskKey(String taskId, int index) {
        return taskId + '\u0000' + index;
    }
}
