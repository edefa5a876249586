package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.RestorePoints;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a job's bounded history of ended checkpoints and its all-time totals. Each ended checkpoint's summary
 * has its own key; the job lists the ids (and the request ids) in the history. When a checkpoint leaves the
 * history, its summary and its per-subtask acks (its per-subtask stats) are removed: one checkpoint's keys,
 * never a scan of the store. The acks of a checkpoint that is still a point to restore from (retained, or a kept
 * savepoint) stay: they are its subtask states, which the REST API and the completed topic hand out for restore.
 * Subtasks that had finished when a checkpoint's tasks were triggered count as acknowledged, with their final states,
 * on both sides of its figures (as in Flink's checkpoint statistics), as they do in its completion.
 */
final class HistoryRecorder {

    private final CoordinatorSettings settings;

    HistoryRecorder(CoordinatorSettings settings) {
        this.settings = settings;
    }

    void completed(CoordinatorState state, JobState job, Optional<PendingCheckpoint> pending,
            CheckpointProgress progress, CheckpointCompleted e) {
        // the completion's count includes the subtasks that had finished; so does what it expected
        int acksReceived = e.getSubtaskCount() >= 0 ? e.getSubtaskCount() : e.getSubtaskStates().size();
        long duration = Math.max(0, e.getCompletionTimestampMs() - e.getTriggerTimestampMs());
        CheckpointSummary summary = CheckpointSummary.newBuilder()
                .setCheckpointId(e.getCheckpointId())
                .setType(e.getType())
                .setPeriodic(pending.map(PendingCheckpoint::getPeriodic).orElse(false))
                .setStatus(CheckpointStatus.COMPLETED)
                .setTriggerTimestampMs(e.getTriggerTimestampMs())
                .setEndTimestampMs(e.getCompletionTimestampMs())
                .setLatestAckTimestampMs(progress.latestAckTimestampMs())
                .setEndToEndDurationMs(duration)
                .setStateSizeBytes(e.getTotalSizeBytes())
                .setAcksExpected(pending.map(p -> p.getAcksExpected() + p.getFinishedSubtasks()).orElse(acksReceived))
                .setAcksReceived(acksReceived)
                .setStorageLocation(e.getStorageLocation())
                .setRequestId(pending.map(PendingCheckpoint::getRequestId).orElse(null))
                .setOptions(pending.map(PendingCheckpoint::getOptions).orElse(null))
                .build();
        job.setTotals(totals(job.getTotals(), duration, e.getTotalSizeBytes()));
        append(state, job, summary);
    }

    void aborted(CoordinatorState state, JobState job, Optional<PendingCheckpoint> pending,
            CheckpointProgress progress, CheckpointAborted e) {
        long trigger = pending.map(PendingCheckpoint::getTriggerTimestampMs).orElse(e.getTimestampMs());
        int finished = pending.map(PendingCheckpoint::getFinishedSubtasks).orElse(0);
        long finishedBytes = pending.map(PendingCheckpoint::getFinishedStateBytes).orElse(0L);
        CheckpointSummary summary = CheckpointSummary.newBuilder()
                .setCheckpointId(e.getCheckpointId())
                .setType(e.getType())
                .setPeriodic(pending.map(PendingCheckpoint::getPeriodic).orElse(false))
                .setStatus(CheckpointStatus.FAILED)
                .setTriggerTimestampMs(trigger)
                .setEndTimestampMs(e.getTimestampMs())
                .setLatestAckTimestampMs(progress.latestAckTimestampMs())
                .setEndToEndDurationMs(Math.max(0, e.getTimestampMs() - trigger))
                .setStateSizeBytes(progress.stateSizeBytes() + finishedBytes)
                .setAcksExpected(pending.map(PendingCheckpoint::getAcksExpected).orElse(0) + finished)
                .setAcksReceived(progress.acksReceived() + finished)
                .setStorageLocation(pending.map(PendingCheckpoint::getStorageLocation).orElse(""))
                .setRequestId(pending.map(PendingCheckpoint::getRequestId).orElse(null))
                .setOptions(pending.map(PendingCheckpoint::getOptions).orElse(null))
                .setFailureReason(e.getReason())
                .setFailureMessage(e.getMessage())
                .build();
        append(state, job, summary);
    }

    private void append(CoordinatorState state, JobState job, CheckpointSummary summary) {
        String jobId = job.getJobId();
        List<Long> ids = new ArrayList<>(job.getHistoryIds());
        List<String> requestIds = new ArrayList<>(job.getHistoryRequestIds());
        ids.add(summary.getCheckpointId());
        if (summary.getRequestId() != null) {
            requestIds.add(summary.getRequestId());
        }
        state.put(StateTable.SUMMARIES, new CheckpointKey(jobId, summary.getCheckpointId()), summary);
        List<Long> evicted = new ArrayList<>();
        while (ids.size() > settings.historySize()) {
            long id = ids.remove(0);
            evicted.add(id);
            state.summary(jobId, id).map(CheckpointSummary::getRequestId).ifPresent(requestIds::remove);
            state.remove(StateTable.SUMMARIES, new CheckpointKey(jobId, id));
        }
        job.setHistoryIds(ids);
        job.setHistoryRequestIds(requestIds);
        for (long id : evicted) {
            if (!RestorePoints.keepsAcks(state, job, id)) {
                state.removeAcks(jobId, id);
            }
        }
    }

    private static CompletedTotals totals(CompletedTotals t, long duration, long size) {
        boolean first = t.getCount() == 0;
        return CompletedTotals.newBuilder()
                .setCount(t.getCount() + 1)
                .setMinDurationMs(first ? duration : Math.min(t.getMinDurationMs(), duration))
                .setMaxDurationMs(first ? duration : Math.max(t.getMaxDurationMs(), duration))
                .setSumDurationMs(t.getSumDurationMs() + duration)
                .setMinSizeBytes(first ? size : Math.min(t.getMinSizeBytes(), size))
                .setMaxSizeBytes(first ? size : Math.max(t.getMaxSizeBytes(), size))
                .setSumSizeBytes(t.getSumSizeBytes() + size)
                .build();
    }
}
