package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.Events;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskMetrics;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What reaches {@code cairn.control}, where sidecars read: as Flink, tasks hear of a checkpoint's completion and
 * of a stop-with-savepoint's, never of an ordinary savepoint's (a two-phase-commit sink must not commit on one);
 * and a discarded ack's state handle goes to the sidecar that should delete it.
 */
class SidecarNotificationsTopologyTest {

    private static final Instant START = CoordinatorDriver.START;

    @TempDir
    Path stateDir;

    private CoordinatorDriver driver;
    private TestInputTopic<String, AckEnvelope> acks;
    private TestOutputTopic<String, ControlEnvelope> control;
    private TestOutputTopic<String, JournalEnvelope> journal;

    @BeforeEach
    void start() {
        driver = CoordinatorDriver.start(stateDir);
        acks = driver.acks();
        control = driver.control();
        journal = driver.journal();
        driver.send("job", new RequestEnvelope(Events.jobSpec("job", "map").setConfig(Events.config(3_600_000,
                60_000).setStorageBaseLocation("file:///cp").build()).setTimestampMs(START.toEpochMilli()).build()));
        acks.pipeInput("job", new AckEnvelope(Events.taskStarted("job", "map", 0, "a").setTimestampMs(0).build()));
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldNotTellTheTasksThatASavepointCompleted() {
        request("sp", CheckpointType.SAVEPOINT, null);
        ack(1);

        assertThat(controlEvents()).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("CheckpointTriggered");
        assertThat(journalEvents()).filteredOn(CheckpointCompleted.class::isInstance).hasSize(1);
    }

    @Test
    void shouldTellTheTasksThatACheckpointCompleted() {
        request("cp", CheckpointType.CHECKPOINT, null);
        ack(1);

        assertThat(controlEvents()).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("CheckpointTriggered", "CheckpointCompleted");
    }

    @Test
    void shouldTellTheTasksThatAStopWithSavepointCompletedAndFinishTheJob() {
        request("stop", CheckpointType.SAVEPOINT, PostCheckpointAction.TERMINATE);
        ack(1);

        List<SpecificRecord> sent = controlEvents();
        assertThat(sent).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("CheckpointTriggered", "CheckpointCompleted");
        assertThat(((CheckpointTriggered) sent.get(0)).getOptions().getPostCheckpointAction())
                .isEqualTo(PostCheckpointAction.TERMINATE);
        assertThat(journalEvents()).filteredOn(JobStatusChange.class::isInstance)
                .extracting(e -> ((JobStatusChange) e).getStatus()).containsExactly(JobStatus.FINISHED);
    }

    @Test
    void shouldSendTheStateHandleOfAnAckForANeverTriggeredCheckpointToTheSidecars() {
        ack(7);

        AckDiscarded discarded = (AckDiscarded) controlEvents().get(0);
        assertThat(discarded.getStatus()).isEqualTo(AckDiscardStatus.DISCARDED);
        assertThat(discarded.getStateHandle().getLocation()).isEqualTo("file:///cp/job/chk-7/map-0");
    }

    private void request(String id, CheckpointType type, PostCheckpointAction action) {
        driver.send("job", new RequestEnvelope(Events.triggerRequest("job", id).setType(type)
                .setPostCheckpointAction(action).setTimestampMs(0).build()));
    }

    private void ack(long id) {
        acks.pipeInput("job", new AckEnvelope(Events.ack("job", id, "map", 0, "a")
                .setStateHandle(Events.state("file:///cp/job/chk-" + id + "/map-0", 10L))
                .setMetrics(SubtaskMetrics.newBuilder().build()).setTimestampMs(0).build()));
    }

    private List<SpecificRecord> controlEvents() {
        return control.readValuesToList().stream().map(e -> (SpecificRecord) e.getEvent()).toList();
    }

    private List<SpecificRecord> journalEvents() {
        return journal.readValuesToList().stream().map(e -> (SpecificRecord) e.getEvent()).toList();
    }
}
