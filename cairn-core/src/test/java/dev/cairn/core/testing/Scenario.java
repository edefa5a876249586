package dev.cairn.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.decide.Decided;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.state.CoordinatorState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Given-when-then fixture for the decider: {@code given(events...)} folds a journal into a fresh
 * state, {@code and(command, now)} decides and applies a setup command, {@code when(command, now)}
 * decides the command under test, checks that deciding did not touch the state, applies the events
 * and returns them for assertions.
 */
public final class Scenario {

    private final CheckpointDecider decider;
    private final CoordinatorState state;
    private final List<SpecificRecord> journal = new ArrayList<>();

    private Scenario(CoordinatorSettings settings, CoordinatorState state) {
        this.decider = new CheckpointDecider(settings);
        this.state = state;
    }

    private Scenario(CoordinatorSettings settings) {
        this(settings, CoordinatorState.inMemory());
    }

    /** A scenario whose state lives in {@code storage}, empty at first: for what a backing is told. */
    public static Scenario over(dev.cairn.core.state.Storage storage) {
        return new Scenario(CoordinatorSettings.DEFAULTS, CoordinatorState.over(storage));
    }

    public static Scenario given(SpecificRecord... events) {
        return withSettings(CoordinatorSettings.DEFAULTS, events);
    }

    public static Scenario withSettings(CoordinatorSettings settings, SpecificRecord... events) {
        Scenario scenario = new Scenario(settings);
        scenario.journal.addAll(Arrays.asList(events));
        scenario.decider.evolver().fold(scenario.state, Arrays.asList(events));
        return scenario;
    }

    /** A RUNNING job with every subtask started, first periodic trigger due at {@code firstDue}. */
    public static Scenario runningJob(dev.cairn.events.JobSpec spec, long firstDue) {
        return given().runningJobOf(spec, firstDue);
    }

    public Scenario runningJobOf(dev.cairn.events.JobSpec spec, long firstDue) {
        long registeredAt = firstDue - spec.getConfig().getMinPauseMs();
        and(new Command.RegisterJob(spec, 0.0), registeredAt);
        for (dev.cairn.events.TaskVertex vertex : spec.getTasks()) {
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                and(new Command.StartTask(Fixtures.started(spec.getJobId(), vertex.getTaskId(), subtask,
                        Fixtures.attempt(vertex.getTaskId(), subtask, 1))), registeredAt);
            }
        }
        return this;
    }

    public Scenario and(Command command, long now) {
        apply(decider.decide(command, state, now));
        return this;
    }

    /**
     * Appends events to the journal as if an earlier decision (or an earlier version of the coordinator) had
     * written them, and folds them into the state.
     */
    public Scenario andJournal(SpecificRecord... events) {
        journal.addAll(Arrays.asList(events));
        decider.evolver().fold(state, Arrays.asList(events));
        return this;
    }

    public Then when(Command command, long now) {
        CoordinatorState before = state.copy();
        Decided decided = decider.decide(command, state, now);
        assertThat(state).as("decide must not mutate the state it is given").isEqualTo(before);
        apply(decided);
        CoordinatorState replayed = CoordinatorState.inMemory();
        decider.evolver().fold(replayed, journal);
        assertThat(replayed).as("the decided changes equal fold(evolve, journal)").isEqualTo(state);
        return new Then(decided.events(), decided.completedRecords(), state, this);
    }

    /** Every acknowledging subtask of the job acks checkpoint {@code id} with its first attempt. */
    public Scenario ackAll(String jobId, long id, long now) {
        for (dev.cairn.events.TaskVertex vertex : state.spec(jobId).orElseThrow().getTasks()) {
            for (int subtask = 0; vertex.getAcknowledges() && subtask < vertex.getParallelism(); subtask++) {
                and(new Command.Acknowledge(Fixtures.ack(jobId, id, vertex.getTaskId(), subtask,
                        Fixtures.attempt(vertex.getTaskId(), subtask, 1), 10)), now);
            }
        }
        return this;
    }

    /** Every event of the journal so far, oldest first. */
    public List<SpecificRecord> journal() {
        return List.copyOf(journal);
    }

    public CoordinatorState state() {
        return state;
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

    private void apply(Decided decided) {
        journal.addAll(decided.events());
        decided.applyTo(state);
    }
}
