package dev.cairn.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.decide.CompletedTopicRecord;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** The events a command led to, and the state after applying them. */
public final class Then {

    private final List<SpecificRecord> events;
    private final List<CompletedTopicRecord> completedRecords;
    private final CoordinatorState state;
    private final Scenario scenario;

    Then(List<SpecificRecord> events, List<CompletedTopicRecord> completedRecords, CoordinatorState state,
            Scenario scenario) {
        this.events = events;
        this.completedRecords = completedRecords;
        this.state = state;
        this.scenario = scenario;
    }

    public List<SpecificRecord> events() {
        return events;
    }

    /** What the decision sends to the completed topic, in sending order. */
    public List<CompletedTopicRecord> completedRecords() {
        return completedRecords;
    }

    /** Exactly these events, in this order. */
    public Then then(SpecificRecord... expected) {
        assertThat(events).containsExactly(expected);
        return this;
    }

    /** Exactly events of these types, in this order. */
    public Then thenTypes(Class<?>... types) {
        assertThat(events).extracting(e -> (Object) e.getClass()).containsExactly((Object[]) types);
        return this;
    }

    public Then thenNothing() {
        assertThat(events).isEmpty();
        return this;
    }

    /** The only event of that type. */
    public <T> T single(Class<T> type) {
        List<T> found = all(type);
        assertThat(found).as("events of type %s in %s", type.getSimpleName(), events).hasSize(1);
        return found.get(0);
    }

    public <T> List<T> all(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public boolean has(Class<?> type) {
        return events.stream().anyMatch(type::isInstance);
    }

    public JobState job(String jobId) {
        return state.job(jobId).orElseThrow();
    }

    /** The job's ended checkpoints in its history, oldest first. */
    public List<dev.cairn.coordinator.state.CheckpointSummary> history(String jobId) {
        return state.history(job(jobId));
    }

    /** The progress of a pending checkpoint. */
    public CheckpointProgress progress(String jobId, long checkpointId) {
        return state.progress(jobId, checkpointId);
    }

    public CoordinatorState state() {
        return state;
    }

    /** Goes on with the same scenario. */
    public Scenario scenario() {
        return scenario;
    }
}
