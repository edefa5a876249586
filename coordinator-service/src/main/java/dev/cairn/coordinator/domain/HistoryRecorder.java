package dev.cairn.coordinator.domain;

import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.CompletedTotals;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a job's bounded history of ended checkpoints and its all-time totals. When a checkpoint
 * leaves the history, its per-subtask acks (its per-subtask stats) are removed from the ack store.
 */
final class HistoryRecorder {

    private final CoordinatorSettings settings;

    HistoryRecorder(CoordinatorSettings settings) {
        this.settings = settings;
    }

    void completed(CoordinatorState state, JobState job, Optional<PendingCheckpoint> pending,
            CheckpointCompleted e) {
        long duration = Math.max(0, e.getCompletionTimestampMs() - e.getTriggerTimestampMs());
        CheckpointSummary summary = CheckpointSummary.newBuilder()
                .setCheckpointId(e.getCheckpointId())
                .setType(e.getType())
                .setPeriodic(pending.map(PendingCheckpoint::getPeriodic).orElse(false))
                .setStatus(CheckpointStatus.COMPLETED)
                .setTriggerTimestampMs(e.getTriggerTimestampMs())
                .setEndTimestampMs(e.getCompletionTimestampMs())
                .setLatestAckTimestampMs(pending.map(PendingCheckpoint::getLatestAckTimestampMs).orElse(null))
                .setEndToEndDurationMs(duration)
                .setStateSizeBytes(e.getTotalSizeBytes())
                .setAcksExpected(pending.map(PendingCheckpoint::getAcksExpected).orElse(e.getSubtaskStates().size()))
                .setAcksReceived(e.getSubtaskStates().size())
                .setStorageLocation(e.getStorageLocation())
                .setRequestId(pending.map(PendingCheckpoint::getRequestId).orElse(null))
                .build();
        job.setTotals(totals(job.getTotals(), duration, e.getTotalSizeBytes()));
        append(state, job, summary);
    }

    void aborted(CoordinatorState state, JobState job, Optional<PendingCheckpoint> pending,
            CheckpointAborted e) {
        long trigger = pending.map(PendingCheckpoint::getTriggerTimestampMs).orElse(e.getTimestampMs());
        CheckpointSummary summary = CheckpointSummary.newBuilder()
                .setCheckpointId(e.getCheckpointId())
                .setType(e.getType())
                .setPeriodic(pending.map(PendingCheckpoint::getPeriodic).orElse(false))
                .setStatus(CheckpointStatus.FAILED)
                .setTriggerTimestampMs(trigger)
                .setEndTimestampMs(e.getTimestampMs())
                .setLatestAckTimestampMs(pending.map(PendingCheckpoint::getLatestAckTimestampMs).orElse(null))
                .setEndToEndDurationMs(Math.max(0, e.getTimestampMs() - trigger))
                .setStateSizeBytes(pending.map(PendingCheckpoint::getStateSizeBytes).orElse(0L))
                .setAcksExpected(pending.map(PendingCheckpoint::getAcksExpected).orElse(0))
                .setAcksReceived(pending.map(PendingCheckpoint::getAcksReceived).orElse(0))
                .setStorageLocation(pending.map(PendingCheckpoint::getStorageLocation).orElse(""))
                .setRequestId(pending.map(PendingCheckpoint::getRequestId).orElse(null))
                .setFailureReason(e.getReason())
                .setFailureMessage(e.getMessage())
                .build();
        append(state, job, summary);
    }

    private void append(CoordinatorState state, JobState job, CheckpointSummary summary) {
        List<CheckpointSummary> history = new ArrayList<>(job.getHistory());
        history.add(summary);
        while (history.size() > settings.historySize()) {
            CheckpointSummary evicted = history.remove(0);
            state.removeAcks(job.getJobId(), evicted.getCheckpointId());
        }
        job.setHistory(history);
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
