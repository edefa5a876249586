package dev.cairn.core.decide;

import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.OverlayStorage;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * What one command decided: the events, in order, for the journal and the sidecars, and the state changes
 * they make, already evolved (like a Kafka group coordinator's result: records, and the state they replay
 * to). The shell sends the events and calls {@link #applyTo} once the decision has succeeded: every change or
 * none. Applying the changes equals folding the events with {@link CheckpointEvolver}; a decision of one event
 * decided without an overlay ({@link #of}) is applied just so.
 */
public final class Decided {

    private final List<SpecificRecord> events;
    /** The changes, evolved as the decision went; {@code null}: fold the events when applying them. */
    private final OverlayStorage changes;
    private final CheckpointEvolver evolver;

    /** Takes {@code events}, which its decision no longer changes. */
    Decided(List<SpecificRecord> events, OverlayStorage changes) {
        this.events = Collections.unmodifiableList(events);
        this.changes = Objects.requireNonNull(changes, "changes");
        this.evolver = null;
    }

    private Decided(SpecificRecord event, CheckpointEvolver evolver) {
        this.events = List.of(event);
        this.changes = null;
        this.evolver = evolver;
    }

    /** A decision of one event, whose changes are that event folded with {@code evolver} when applied. */
    static Decided of(SpecificRecord event, CheckpointEvolver evolver) {
        return new Decided(event, Objects.requireNonNull(evolver, "evolver"));
    }

    /** The decided events, in order; empty when the command changed nothing. */
    public List<SpecificRecord> events() {
        return events;
    }

    /** Writes the decision's state changes to {@code state}, which must be the state it was decided on. */
    public void applyTo(CoordinatorState state) {
        if (changes != null) {
            changes.applyTo(state);
        } else {
            for (SpecificRecord event : events) {
                evolver.evolve(state, event);
            }
        }
    }
}
