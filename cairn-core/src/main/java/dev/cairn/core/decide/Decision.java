package dev.cairn.core.decide;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.BoundedText;
import dev.cairn.core.events.Command;
import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.OverlayStorage;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * One decision in progress: an overlay over the real state, the events emitted so far (each applied
 * to the overlay at once, so later steps see earlier effects), the time and the settings.
 */
final class Decision {

    final CoordinatorState state;
    private final CoordinatorState base;
    private final OverlayStorage changes;
    final long now;
    final CoordinatorSettings settings;
    private final CheckpointEvolver evolver;
    /** Most decisions emit one or two events (an accepted ack: one). */
    private final List<SpecificRecord> events = new ArrayList<>(2);

    Decision(CoordinatorState base, CheckpointEvolver evolver, CoordinatorSettings settings, long now) {
        this.base = base;
        this.changes = new OverlayStorage(base.storage());
        this.state = CoordinatorState.layered(base, changes);
        this.evolver = evolver;
        this.settings = settings;
        this.now = now;
    }

    void emit(SpecificRecord event) {
        events.add(event);
        evolver.evolve(state, event);
    }

    Decided decided() {
        return new Decided(events, RestorePointRecords.of(events, base, state, settings), changes);
    }

    /** The job as of now in this decision; it must exist. */
    JobState job(String jobId) {
        return state.job(jobId).orElseThrow(() -> new IllegalStateException("no job " + jobId));
    }

    /** Rejects the command; a job id beyond the limit is named in its bounded form ({@link BoundedText}). */
    void reject(String jobId, Command command, String reason) {
        emit(CommandRejected.newBuilder()
                .setJobId(jobId == null ? "" : BoundedText.of(jobId, settings.limits().maxIdLength()))
                .setCommandType(command.getClass().getSimpleName())
                .setReason(reason)
                .setTimestampMs(now)
                .build());
    }

    void outcome(String jobId, String requestId, RequestStatus status, CheckpointFailureReason reason,
            String message, Long checkpointId) {
        emit(RequestOutcome.newBuilder()
                .setJobId(jobId)
                .setRequestId(requestId)
                .setStatus(status)
                .setReason(reason)
                .setMessage(message)
                .setCheckpointId(checkpointId)
                .setTimestampMs(now)
                .build());
    }

}
