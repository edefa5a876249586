package dev.cairn.core.decide;

import dev.cairn.core.evolve.CheckpointEvolver;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.OverlayStorage;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * What one command decided: the events, in order, for the journal and the sidecars; the records for
 * {@code <prefix>completed} when the job has a new restore point ({@link #completedRecords}); and the state changes
 * the events make, already evolved (like a Kafka group coordinator's result: records, and the state they replay
 * to). The shell sends the records and calls {@link #applyTo} once the decision has succeeded: every change or
 * none. Applying the changes equals folding the events with {@link CheckpointEvolver}; a decision of one event
 * decided without an overlay ({@link #of}) is applied just so.
 */
public final class Decided {

    private final List<SpecificRecord> events;
    private final List<CompletedTopicRecord> completedRecords;
    /** The changes, evolved as the decision went; {@code null}: fold the events when applying them. */
    private final OverlayStorage changes;
    private final CheckpointEvolver evolver;

    /** Takes {@code events}, which its decision no longer changes. */
    Decided(List<SpecificRecord> events, List<CompletedTopicRecord> completedRecords, OverlayStorage changes) {
        this.events = Collections.unmodifiableList(events);
        this.completedRecords = List.copyOf(completedRecords);
        this.changes = Objects.requireNonNull(changes, "changes");
        this.evolver = null;
    }

    private Decided(SpecificRecord event, CheckpointEvolver evolver) {
        this.events = List.of(event);
        this.completedRecords = List.of();
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

    /**
     * The records for {@code <prefix>completed}, in sending order: the job's retained checkpoints and its new restore
     * point's parts ({@link RestorePointRecords}); empty when the decision made no new restore point.
     */
    public List<CompletedTopicRecord> completedRecords() {
        return completedRecords;
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
