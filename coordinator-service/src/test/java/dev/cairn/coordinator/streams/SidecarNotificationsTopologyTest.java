package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.domain.CoordinatorSettings;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
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

    private static final CairnTopics TOPICS = CairnTopics.defaults();
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, RequestEnvelope> requests;
    private TestInputTopic<String, AckEnvelope> acks;
    private TestOutputTopic<String, ControlEnvelope> control;
    private TestOutputTopic<String, JournalEnvelope> journal;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "sidecar-notifications-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(CoordinatorTopology.build(TOPICS, CoordinatorSettings.DEFAULTS, () -> 0.0,
                Duration.ofMillis(100)), props, START);
        requests = driver.createInputTopic(TOPICS.requests(), new StringSerializer(), CairnSerdes.requests().serializer());
        acks = driver.createInputTopic(TOPICS.acks(), new StringSerializer(), CairnSerdes.acks().serializer());
        control = driver.createOutputTopic(TOPICS.control(), new StringDeserializer(), CairnSerdes.control().deserializer());
        journal = driver.createOutputTopic(TOPICS.journal(), new StringDeserializer(), CairnSerdes.journal().deserializer());
        requests.pipeInput("job", new RequestEnvelope(JobSpec.newBuilder().setJobId("job")
                .setTasks(List.of(TaskVertex.newBuilder().setTaskId("map").setParallelism(1).build()))
                .setConfig(CheckpointConfig.newBuilder().setIntervalMs(3_600_000).setTimeoutMs(60_000)
                        .setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(START.toEpochMilli()).build()));
        acks.pipeInput("job", new AckEnvelope(TaskStarted.newBuilder().setJobId("job").setTaskId("map")
                .setSubtaskIndex(0).setAttemptId("a").setTimestampMs(0).build()));
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldNotTellTheTasksThatASavepointCompleted() {
        request("sp", CheckpointType.SAVEPOINT, null);
        ack(1);

        assertThat(controlEvents()).extracting(e -> e.getClass().getSimpleName()).containsExactly("CheckpointTriggered");
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
        requests.pipeInput("job", new RequestEnvelope(TriggerRequest.newBuilder().setJobId("job").setRequestId(id)
                .setType(type).setPostCheckpointAction(action).setRequester("test").setTimestampMs(0).build()));
    }

    private void ack(long id) {
        acks.pipeInput("job", new AckEnvelope(CheckpointAcknowledged.newBuilder().setJobId("job")
                .setCheckpointId(id).setTaskId("map").setSubtaskIndex(0).setAttemptId("a")
                .setStateHandle(new StateHandle("file:///cp/job/chk-" + id + "/map-0", 10L))
                .setMetrics(SubtaskMetrics.newBuilder().build()).setTimestampMs(0).build()));
    }

    private List<SpecificRecord> controlEvents() {
        return control.readValuesToList().stream().map(e -> (SpecificRecord) e.getEvent()).toList();
    }

    private List<SpecificRecord> journalEvents() {
        return journal.readValuesToList().stream().map(e -> (SpecificRecord) e.getEvent()).toList();
    }
}
