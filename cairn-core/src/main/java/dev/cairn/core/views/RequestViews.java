package dev.cairn.core.views;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.coordinator.state.RequestRecord;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestStatus;
import java.util.Optional;

/**
 * The status of one trigger request, as Flink answers for an asynchronous operation ({@link ApiViews.Operation}):
 * in progress while it waits in the job's queue or its checkpoint is pending (both from the job's state), ended
 * once the coordinator recorded its outcome ({@link RequestRecord}). A request in the queue or pending is shown as
 * such even when an earlier request with the same id has a record. Pure: the caller reads the stores.
 */
public final class RequestViews {

    static final String IN_PROGRESS = "IN_PROGRESS";
    static final String COMPLETED = "COMPLETED";
    /** What {@code failure-cause.class} says: every failure Cairn reports is a checkpoint's or request's failure. */
    static final String FAILURE_KIND = "CheckpointException";

    private RequestViews() {
    }

    /**
     * The request's status, empty when the coordinator does not know it.
     *
     * @param savepointPath whether it was asked at {@code /savepoints/{requestId}} (Flink's {@code SavepointInfo})
     *     or at {@code /checkpoints/{requestId}} (Flink's {@code CheckpointInfo})
     */
    public static Optional<ApiViews.Operation> status(JobState job, String requestId, Optional<RequestRecord> record,
            boolean savepointPath) {
        for (QueuedRequest queued : job.getQueue()) {
            if (requestId.equals(queued.getRequestId())) {
                return Optional.of(inProgress(requestId, "QUEUED", queued.getType(), null,
                        queued.getTargetLocation(), queued.getTimestampMs()));
            }
        }
        for (PendingCheckpoint pending : job.getPending()) {
            if (requestId.equals(pending.getRequestId())) {
                return Optional.of(inProgress(requestId, RequestStatus.TRIGGERED.name(), pending.getType(),
                        pending.getCheckpointId(), pending.getStorageLocation(), pending.getTriggerTimestampMs()));
            }
        }
        return record.map(r -> r.getStatus() == RequestStatus.TRIGGERED
                ? inProgress(requestId, r.getStatus().name(), r.getType(), r.getCheckpointId(), r.getLocation(),
                        r.getTimestampMs())
                : ended(r, savepointPath));
    }

    private static ApiViews.Operation inProgress(String requestId, String stage, CheckpointType type, Long id,
            String location, long since) {
        return new ApiViews.Operation(new ApiViews.QueueStatus(IN_PROGRESS), null,
                new ApiViews.RequestStage(requestId, stage, name(type), id, location, null, null, since));
    }

    private static ApiViews.Operation ended(RequestRecord r, boolean savepointPath) {
        boolean completed = r.getStatus() == RequestStatus.COMPLETED;
        ApiViews.FailureCause cause = completed ? null : cause(r.getReason(), r.getMessage());
        Object operation;
        if (savepointPath) {
            operation = new ApiViews.SavepointOperation(completed ? r.getLocation() : null, cause);
        } else {
            operation = new ApiViews.CheckpointOperation(completed ? r.getCheckpointId() : null, cause);
        }
        return new ApiViews.Operation(new ApiViews.QueueStatus(COMPLETED), operation,
                new ApiViews.RequestStage(r.getRequestId(), r.getStatus().name(), name(r.getType()),
                        r.getCheckpointId(), r.getLocation(), name(r.getReason()), r.getMessage(), r.getTimestampMs()));
    }

    private static ApiViews.FailureCause cause(CheckpointFailureReason reason, String message) {
        String why = reason == null ? "UNKNOWN" : reason.name();
        String text = message == null || message.isBlank() ? why : message + " (" + why + ")";
        return new ApiViews.FailureCause(FAILURE_KIND, FAILURE_KIND + ": " + text);
    }

    private static String name(Enum<?> value) {
        return value == null ? null : value.name();
    }
}
