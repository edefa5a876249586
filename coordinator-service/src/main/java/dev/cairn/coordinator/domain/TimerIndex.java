package dev.cairn.coordinator.domain;

import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The timers an event creates, for the shell's (dueAtMs, jobId) index: a checkpoint's timeout and
 * the next periodic trigger. When one is due the shell sends {@link Command.Tick}; a tick for a
 * timer that became obsolete (completed checkpoint, re-scheduled trigger) produces no events, so
 * the index never needs to delete entries other than those it fired.
 */
public final class TimerIndex {

    /** A moment at which the job should get a {@link Command.Tick}. */
    public record Timer(String jobId, long dueAtMs) {
    }

    private TimerIndex() {
    }

    /** The timer this event creates, if any. */
    public static Optional<Timer> timer(SpecificRecord event) {
        if (event instanceof CheckpointTriggered e) {
            return Optional.of(new Timer(e.getJobId(), e.getTimeoutAtMs()));
        }
        if (event instanceof ParticipantsTriggered e) {
            return Optional.of(new Timer(e.getJobId(), e.getTimeoutAtMs()));
        }
        if (event instanceof PeriodicTriggerScheduled e) {
            return Optional.of(new Timer(e.getJobId(), e.getDueAtMs()));
        }
        return Optional.empty();
    }
}
