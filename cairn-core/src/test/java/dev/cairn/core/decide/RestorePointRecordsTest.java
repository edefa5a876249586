package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SINK;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.acknowledge;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.savepointRequest;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a decision sends to the completed topic: the retained checkpoints and the restore point's subtask states in
 * parts, whenever the job gets a new restore point (a completed checkpoint, the stop's savepoint, a point a user
 * restored the job from), and nothing for any other decision.
 */
class RestorePointRecordsTest {

    /** Checkpoint {@code id} triggered at {@code at}, acknowledged by every subtask but the sink. */
    private static Scenario awaitingTheSinksAck(Scenario scenario, long id, long at) {
        return scenario.and(acknowledge(id, SOURCE, 0), at + 10)
                .and(acknowledge(id, SOURCE, 1), at + 20);
    }

    private static List<String> keys(Then then) {
        return then.completedRecords().stream().map(CompletedTopicRecord::key).toList();
    }

    private static List<String> locations(RestorePart part) {
        return part.getStates().stream().map(s -> s.getHandle().getLocation()).toList();
    }

    @Test
    void shouldPublishTheRetainedCheckpointsAndTheSubtaskStatesWhenACheckpointCompletes() {
        Scenario scenario = awaitingTheSinksAck(Scenario.runningJob(spec(), 1000).and(tick(), 1000), 1, 1000);

        Then then = scenario.when(acknowledge(1, SINK, 0), 1100);

        assertThat(keys(then)).containsExactly(JOB, CairnTopics.restorePartKey(JOB, 0));
        RetainedCheckpoints retained = (RetainedCheckpoints) then.completedRecords().get(0).value();
        assertThat(retained).isEqualTo(then.state().retained(JOB).orElseThrow());
        RestorePart part = (RestorePart) then.completedRecords().get(1).value();
        assertThat(part.getCheckpointId()).isEqualTo(1);
        assertThat(part.getParts()).isEqualTo(1);
        assertThat(part.getStates()).extracting(SubtaskState::getTaskId).containsExactly(SINK, SOURCE, SOURCE);
        assertThat(locations(part)).containsExactly("mem://state/sink/0/1/sink-0-a1",
                "mem://state/source/0/1/source-0-a1", "mem://state/source/1/1/source-1-a1");
    }

    @Test
    void shouldPublishNothingWhenAnAckDoesNotCompleteTheCheckpoint() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000);

        Then then = scenario.when(acknowledge(1, SOURCE, 0), 1010);

        assertThat(then.completedRecords()).isEmpty();
    }

    @Test
    void shouldPublishNothingWhenASavepointCompletes() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(savepointRequest("sp", "file:///savepoints/sp"), 1200);

        Then then = awaitingTheSinksAck(scenario, 2, 1200).when(acknowledge(2, SINK, 0), 1300);

        assertThat(then.single(CheckpointCompleted.class).getCheckpointId()).isEqualTo(2);
        assertThat(then.completedRecords()).as("a savepoint is not a restore point unless it stops the job")
                .isEmpty();
    }

    @Test
    void shouldPublishTheStopsSavepointAsTheRestorePoint() {
        Scenario scenario = Scenario.runningJob(spec(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 1200);

        Then then = awaitingTheSinksAck(scenario, 2, 1200).when(acknowledge(2, SINK, 0), 1300);

        assertThat(keys(then)).containsExactly(JOB, CairnTopics.restorePartKey(JOB, 0));
        assertThat(((RestorePart) then.completedRecords().get(1).value()).getCheckpointId()).isEqualTo(2);
    }

    @Test
    void shouldPublishTheChosenPointWhenAJobIsRestoredFromIt() {
        Scenario scenario = Scenario.runningJob(spec(config().setRetained(2)), 1000).and(tick(), 1000)
                .ackAll(JOB, 1, 1100).and(tick(), 2000).ackAll(JOB, 2, 2100)
                .and(stop("stop", PostCheckpointAction.SUSPEND), 2200).ackAll(JOB, 3, 2300);

        Then then = scenario.when(new Command.Restore(RestoreJob.newBuilder().setJobId(JOB).setRequestId("r")
                .setCheckpointId(2L).setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test").setTimestampMs(0)
                .build(), 0.0), 3000);

        RetainedCheckpoints retained = (RetainedCheckpoints) then.completedRecords().get(0).value();
        assertThat(retained.getChosenRestoreId()).isEqualTo(2);
        RestorePart part = (RestorePart) then.completedRecords().get(1).value();
        assertThat(part.getCheckpointId()).isEqualTo(2);
        assertThat(locations(part)).containsExactly("mem://state/sink/0/2/sink-0-a1",
                "mem://state/source/0/2/source-0-a1", "mem://state/source/1/2/source-1-a1");
    }

    @Test
    void shouldCutTheRestorePointIntoPartsOfTheStatesThatFitOneRecord() {
        CoordinatorSettings small = CoordinatorSettings.DEFAULTS.withMaxRecordBytes(16 * 1024);
        Scenario scenario = awaitingTheSinksAck(Scenario.withSettings(small).runningJobOf(spec(), 1000)
                .and(tick(), 1000), 1, 1000);

        Then then = scenario.when(acknowledge(1, SINK, 0), 1100);

        int parts = RestoreParts.partCount(3, RestoreParts.statesPerPart(small.limits(), small.maxRecordBytes()));
        assertThat(parts).isGreaterThan(1);
        assertThat(keys(then)).hasSize(1 + parts).startsWith(JOB, CairnTopics.restorePartKey(JOB, 0),
                CairnTopics.restorePartKey(JOB, 1));
        assertThat(then.completedRecords().subList(1, 1 + parts)).extracting(r -> ((RestorePart) r.value())
                .getParts()).containsOnly(parts);
    }

    @Test
    void shouldKeepTheNewestRetainedCheckpointsThatFitWhenAllDoNot() throws IOException {
        Scenario scenario = Scenario.runningJob(spec(config().setRetained(6)
                .setStorageBaseLocation("file:///" + "x".repeat(300))), 1000);
        for (long id = 1; id <= 6; id++) {
            scenario.and(tick(), id * 1000).ackAll(JOB, id, id * 1000 + 100);
        }
        RetainedCheckpoints all = scenario.state().retained(JOB).orElseThrow();
        List<CheckpointCompleted> checkpoints = all.getCheckpoints();
        assertThat(checkpoints).hasSize(6);
        int limit = all.toByteBuffer().remaining() / 2;

        RetainedCheckpoints fitting = RestorePointRecords.fitting(all, limit);

        assertThat(fitting.toByteBuffer().remaining()).isLessThanOrEqualTo(limit);
        List<CheckpointCompleted> kept = fitting.getCheckpoints();
        assertThat(kept).isNotEmpty().isEqualTo(checkpoints.subList(checkpoints.size() - kept.size(),
                checkpoints.size()));
        assertThat(RetainedCheckpoints.newBuilder(fitting).setCheckpoints(checkpoints.subList(
                checkpoints.size() - kept.size() - 1, checkpoints.size())).build().toByteBuffer().remaining())
                .as("one more would not fit").isGreaterThan(limit);
        assertThat(RestorePointRecords.fitting(all, Integer.MAX_VALUE)).isSameAs(all);
    }
}
