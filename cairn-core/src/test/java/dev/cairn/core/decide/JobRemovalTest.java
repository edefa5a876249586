package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.finish;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.RemovedJob;
import dev.cairn.core.audit.JournalEntry;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.StoredEntries;
import dev.cairn.core.testing.Then;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JobStatus;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SharedState;
import dev.cairn.events.StateHandle;
import dev.cairn.events.topics.CairnTopics;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A job's removal: only a job that is not RUNNING is removed; every entry it has in every table goes, another job's
 * stay; the journal keeps its history, and the fold of the journal with the removal is the live state; its checkpoint
 * ids go on when the id is registered again; nothing on the completed topic makes that job restore the removed
 * one's state, and no late ack of the removed job hands a state out for deletion.
 */
class JobRemovalTest {

    private static final String OTHER = "job-2";
    private static final String SAVEPOINT_TARGET = "file:///savepoints/sp-2";

    /**
     * Job {@link Fixtures#JOB} (incremental): checkpoint 1, savepoint 2 (requested through the requests topic) whose
     * state names a shared object, checkpoint 3, the sink finished, then stopped with savepoint 4: FINISHED, with
     * something in every table. Beside it job
     * {@link #OTHER}, RUNNING, with checkpoint 1 completed.
     */
    private static Scenario finishedBesideAnother() {
        Scenario scenario = Scenario.runningJob(spec(config().setBackupType(BackupType.INCREMENTAL)), 1000)
                .and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(new Command.Delivered(savepointRequest("sp", SAVEPOINT_TARGET), 1200), 1200)
                .and(ackNaming(2, SOURCE, 0, "mem://shared/a"), 1300)
                .and(acknowledge(2, SOURCE, 1), 1300).and(acknowledge(2, SINK, 0), 1300)
                .and(tick(), 2000).ackAll(JOB, 3, 2100)
                .and(finish(SINK, 0, 5), 2150)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 2200)
                .and(acknowledge(4, SOURCE, 0), 2300).and(acknowledge(4, SOURCE, 1), 2300);
        scenario.runningJobOf(spec(OTHER, config(), vertex(SOURCE, 1, true, true)), 3000);
        return scenario.and(new Command.Tick(OTHER), 3000).ackAll(OTHER, 1, 3100);
    }

    private static Command.Acknowledge ackNaming(long id, String task, int subtask, String shared) {
        CheckpointAcknowledged ack = Events.ack(JOB, id, task, subtask, attempt(task, subtask, 1))
                .setStateHandle(StateHandle.newBuilder().setLocation("mem://own/" + task + "/" + id).setSizeBytes(10)
                        .setShared(List.of(SharedState.newBuilder().setLocation(shared).setSizeBytes(100)
                                .setReused(false).build()))
                        .build())
                .setTimestampMs(0).build();
        return new Command.Acknowledge(ack);
    }

    private static Command.Remove remove(String jobId, String requestId) {
        return new Command.Remove(RemoveJob.newBuilder().setJobId(jobId).setRequestId(requestId).setRequester("test")
                .setTimestampMs(0).build());
    }

    /** The scenario's job {@link Fixtures#JOB} removed by request "r1" at 5000. */
    private static Scenario removed() {
        return finishedBesideAnother().and(remove(JOB, "r1"), 5000);
    }

    @Test
    void shouldRemoveEveryStoreEntryOfAFinishedJob() {
        Scenario scenario = finishedBesideAnother();
        assertThat(scenario.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
        Map<String, Map<Object, Object>> other = StoredEntries.of(scenario.state(), OTHER);
        assertThat(StoredEntries.of(scenario.state(), JOB).keySet()).as("the job has entries in every table")
                .containsExactlyInAnyOrderElementsOf(StateTable.ALL.stream().filter(t -> t != StateTable.REMOVED)
                        .map(StateTable::store).toList());

        Then then = scenario.when(remove(JOB, "r1"), 5000);

        then.thenTypes(RemoveJob.class, JobRemoved.class, RequestOutcome.class);
        assertThat(then.single(JobRemoved.class).getStatus()).isEqualTo(JobStatus.FINISHED);
        assertThat(then.single(JobRemoved.class).getNextCheckpointId()).isEqualTo(5);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(outcome.getCheckpointId()).as("the newest id the job used").isEqualTo(4);
        assertThat(StoredEntries.of(then.state(), JOB)).as("nothing of the job but where its ids got to and the "
                + "requests it took, which a replay would repeat").containsOnlyKeys(StateTable.REMOVED.store(),
                StateTable.ADMISSIONS.store());
        assertThat(then.state().removed(JOB)).contains(RemovedJob.newBuilder().setJobId(JOB).setNextCheckpointId(5)
                .setRequestId("r1").setRemovedAtMs(5000).build());
        assertThat(then.state().jobIds()).containsExactly(OTHER);
        assertThat(StoredEntries.of(then.state(), OTHER)).as("the other job is untouched").isEqualTo(other);
    }

    @ParameterizedTest
    @EnumSource(value = JobStatus.class, names = {"SUSPENDED", "CANCELED", "FAILED"})
    void shouldRemoveAJobThatLeftRunningForAnyOtherStatus(JobStatus left) {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(tick(), 2000).and(status(left), 2050);

        Then then = scenario.when(remove(JOB, "r1"), 3000);

        assertThat(then.single(JobRemoved.class).getStatus()).isEqualTo(left);
        assertThat(then.single(JobRemoved.class).getNextCheckpointId()).as("the aborted checkpoint 2 used its id")
                .isEqualTo(3);
        assertThat(StoredEntries.of(then.state(), JOB)).containsOnlyKeys(StateTable.REMOVED.store());
    }

    @Test
    void shouldRefuseToRemoveARunningJobWithTheReasonInTheJournalAndChangeNothing() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000);
        Map<String, Map<Object, Object>> before = StoredEntries.of(scenario.state(), JOB);

        Then then = scenario.when(remove(JOB, "r1"), 1050);

        then.thenTypes(RemoveJob.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getReason()).isEqualTo(CheckpointFailureReason.INVALID_REQUEST);
        assertThat(outcome.getMessage()).startsWith("job job-1 is RUNNING").contains("cairn stop");
        assertThat(then.job(JOB).getPending()).as("its checkpoint goes on").hasSize(1);
        assertThat(then.state().request(JOB, "r1")).as("the refusal is the request's outcome").isPresent();
        assertThat(then.state().removed(JOB)).isEmpty();
        before.keySet().forEach(table -> assertThat(StoredEntries.of(then.state(), JOB)).containsKey(table));
    }

    @Test
    void shouldRefuseToRemoveAnUnknownJobWithTheReasonInTheJournal() {
        Then then = Scenario.given().when(remove(JOB, "r1"), 10);

        then.thenTypes(RemoveJob.class, RequestOutcome.class);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.single(RequestOutcome.class).getMessage()).isEqualTo("unknown job job-1");
        assertThat(StoredEntries.of(then.state(), JOB)).isEmpty();
    }

    @Test
    void shouldRefuseToRemoveARemovedJobAgainNamingItsRemoval() {
        Then then = removed().when(remove(JOB, "r2"), 6000);

        then.thenTypes(RemoveJob.class, RequestOutcome.class);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.single(RequestOutcome.class).getMessage()).isEqualTo("unknown job job-1: it was removed at "
                + "1970-01-01T00:00:05Z (request r1); registered again, it takes checkpoint ids from 5 on");
    }

    @Test
    void shouldDecideNothingOnTheRemovalsOwnRequestIdAgain() {
        removed().when(remove(JOB, "r1"), 6000).thenNothing();
    }

    @Test
    void shouldRejectEveryOtherRequestOfARemovedJobNamingItsRemoval() {
        Then then = removed().when(status(JobStatus.RUNNING), 6000);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).startsWith("unknown job job-1: it was removed at");
    }

    @Test
    void shouldRejectARemovalWithoutARequestIdAndRemoveNothing() {
        Scenario scenario = finishedBesideAnother();

        Then then = scenario.when(remove(JOB, " "), 5000);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).isEqualTo("request id is empty");
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);
    }

    @Test
    void shouldGoOnAboveTheRemovedJobsCheckpointIdsWhenTheIdIsRegisteredAgain() {
        Scenario scenario = removed();

        Then registered = scenario.when(new Command.RegisterJob(spec(), 0.0), 6000);

        assertThat(registered.job(JOB).getNextCheckpointId()).isEqualTo(5);
        assertThat(registered.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(registered.job(JOB).getCounts().getCompleted()).as("a new job's counts").isZero();
        assertThat(registered.state().savepoints(JOB)).as("nothing of the removed job comes back").isEmpty();
        Scenario started = registered.scenario().and(Fixtures.start(SOURCE, 0, 2), 6000)
                .and(Fixtures.start(SOURCE, 1, 2), 6000).and(Fixtures.start(SINK, 0, 2), 6000);
        Then ticked = started.when(tick(), 7000);
        assertThat(ticked.single(CheckpointTriggered.class).getCheckpointId()).as("above the removed job's last, 4")
                .isEqualTo(5);
        assertThat(ticked.state().removed(JOB)).as("kept for its late acks").isPresent();
    }

    @Test
    void shouldEqualTheFoldOfTheJournalWithTheRemovalAndTheRegistrationAgain() {
        Scenario scenario = removed().and(new Command.RegisterJob(spec(), 0.0), 6000);

        CoordinatorState folded = CoordinatorState.inMemory();
        new CheckpointDecider(CoordinatorSettings.DEFAULTS).evolver().fold(folded, scenario.journal());
        Replay audit = new Replay(CoordinatorSettings.DEFAULTS, null);
        long offset = 0;
        for (SpecificRecord event : scenario.journal()) {
            audit.accept(JournalEntry.of(0, offset++, 0, null, event));
        }

        assertThat(folded).isEqualTo(scenario.state());
        assertThat(audit.state()).as("the audit's replay").isEqualTo(scenario.state());
    }

    @Test
    void shouldLeaveNothingOnTheCompletedTopicThatAJobRegisteredAgainWouldRestore() {
        Then then = finishedBesideAnother().when(remove(JOB, "r1"), 5000);

        List<CompletedTopicRecord> records = then.completedRecords();
        assertThat(records).extracting(CompletedTopicRecord::key)
                .containsExactly(JOB, CairnTopics.restorePartKey(JOB, 0));
        RetainedCheckpoints left = (RetainedCheckpoints) records.get(0).value();
        assertThat(left.getCheckpoints()).as("no restore point").isEmpty();
        assertThat(left.getChosenAfterId()).as("the removed job's completions on control are older").isEqualTo(4);
        assertThat(records.get(1).value()).as("a tombstone for the removed job's restore part").isNull();
    }

    @Test
    void shouldKeepTheStateOfALateAckOfTheRemovedJobOnceTheIdIsRegisteredAgain() {
        Scenario again = removed().and(new Command.RegisterJob(spec(), 0.0), 6000);

        Then then = again.when(acknowledge(3, SOURCE, 0), 6100);

        AckDiscarded discarded = then.single(AckDiscarded.class);
        assertThat(discarded.getStateHandle()).as("the removed job's states stay the user's").isNull();
        assertThat(discarded.getMessage()).contains("checkpoint 3 belongs to the job removed under this id");
    }
}
