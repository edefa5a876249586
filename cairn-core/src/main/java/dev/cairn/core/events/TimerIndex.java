package dev.cairn.core.events;

import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * The timers an event creates, for the shell's (dueAtMs, jobId) index: a checkpoint's timeout and
 * the next periodic trigger (the kinds that {@link EventKind#setsTimer}). When one is due the shell sends
 * {@link Command.Tick}; a tick for a timer that became obsolete (completed checkpoint, re-scheduled trigger)
 * produces no events, so the index never needs to delete entries other than those it fired.
 */
public final class TimerIndex {

    /** A moment at which the job should get a {@link Command.Tick}. */
    public record Timer(String jobId, long dueAtMs) {
    }

    private TimerIndex() {
    }

    /**
     * The timer this event creates, if any.
     *
     * @throws IllegalArgumentException when the event is no journal event
     */
    public static Optional<Timer> timer(SpecificRecord event) {
        return EventKind.of(event).setsTimer()
                ? Optional.of(new Timer(EventFields.jobId(event), EventFields.timerDueMs(event)))
                : Optional.empty();
    }
}
