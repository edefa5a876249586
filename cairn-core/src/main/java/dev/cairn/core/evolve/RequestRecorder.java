package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.RequestIndex;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.PendingCheckpoints;
import dev.cairn.core.state.StateKeys.RequestKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.RequestOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Keeps what became of each trigger request of a job, for the status queries of Flink's asynchronous operations
 * ({@code GET /jobs/{id}/savepoints/{requestId}}): a {@link RequestOutcome} becomes the request's
 * {@link RequestRecord}, with the type and the storage location of its checkpoint taken from the pending
 * checkpoint or the history's summary it names. The records of a job are bounded like Flink's completed-operation
 * cache: the job's {@link RequestIndex} lists them oldest first (by first outcome), and the oldest is removed once
 * more than {@link CoordinatorSettings#requestsKept()} are kept. Outcomes of jobs that do not exist are not kept:
 * nothing would bound them. Neither the job's state nor anything an ack reads changes.
 */
final class RequestRecorder {

    private final CoordinatorSettings settings;

    RequestRecorder(CoordinatorSettings settings) {
        this.settings = settings;
    }

    void outcome(CoordinatorState state, RequestOutcome e) {
        String jobId = e.getJobId();
        Optional<JobState> job = state.job(jobId);
        if (job.isEmpty()) {
            return;
        }
        Optional<RequestRecord> previous = state.request(jobId, e.getRequestId());
        RequestRecord.Builder record = RequestRecord.newBuilder()
                .setRequestId(e.getRequestId())
                .setStatus(e.getStatus())
                .setCheckpointId(e.getCheckpointId())
                .setReason(e.getReason())
                .setMessage(e.getMessage())
                .setTimestampMs(e.getTimestampMs());
        if (e.getCheckpointId() != null) {
            ranAs(state, job.get(), e.getCheckpointId(), previous, record);
        }
        if (previous.isEmpty()) {
            index(state, jobId, e.getRequestId());
        }
        RequestRecord request = record.build();
        state.put(StateTable.REQUESTS, new RequestKey(jobId, request.getRequestId()), request);
    }

    /** The type and location of the checkpoint the request ran as: pending, in the history, or as recorded before. */
    private static void ranAs(CoordinatorState state, JobState job, long checkpointId,
            Optional<RequestRecord> previous, RequestRecord.Builder record) {
        Optional<PendingCheckpoint> pending = PendingCheckpoints.find(job, checkpointId);
        if (pending.isPresent()) {
            record.setType(pending.get().getType()).setLocation(pending.get().getStorageLocation());
            return;
        }
        Optional<CheckpointSummary> ended = job.getHistoryIds().contains(checkpointId)
                ? state.summary(job.getJobId(), checkpointId) : Optional.empty();
        if (ended.isPresent()) {
            record.setType(ended.get().getType()).setLocation(ended.get().getStorageLocation());
            return;
        }
        previous.filter(p -> Long.valueOf(checkpointId).equals(p.getCheckpointId()))
                .ifPresent(p -> record.setType(p.getType()).setLocation(p.getLocation()));
    }

    /** Lists a request that had no record yet as the newest; removes the oldest records beyond the bound. */
    private void index(CoordinatorState state, String jobId, String requestId) {
        List<String> ids = new ArrayList<>(state.requestIndex(jobId).map(RequestIndex::getRequestIds)
                .orElse(List.of()));
        ids.add(requestId);
        while (ids.size() > settings.requestsKept()) {
            state.remove(StateTable.REQUESTS, new RequestKey(jobId, ids.remove(0)));
        }
        state.put(StateTable.REQUEST_INDEXES, jobId,
                RequestIndex.newBuilder().setJobId(jobId).setRequestIds(ids).build());
    }
}
